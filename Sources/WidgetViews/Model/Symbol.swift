/// The fixed set of symbols a view may show, each drawn as a character that DejaVu Sans has (the font a bare Debian
/// kiosk has), so no host fetches anything and a terminal shows them too.
public enum Symbol: String, Sendable, Hashable, CaseIterable {
    case sun, moon, cloud
    case cloudSun = "cloud.sun"
    case cloudRain = "cloud.rain"
    case cloudSnow = "cloud.snow"
    case cloudBolt = "cloud.bolt"
    case cloudFog = "cloud.fog"
    case wind, umbrella, snowflake, flame, leaf
    case star
    case starEmpty = "star.empty"
    case heart, bolt, clock, timer, calendar
    case checkmark, xmark, warning, info
    case arrowUp = "arrow.up"
    case arrowDown = "arrow.down"
    case arrowLeft = "arrow.left"
    case arrowRight = "arrow.right"
    case arrowUpRight = "arrow.up.right"
    case arrowDownRight = "arrow.down.right"
    case play, pause, stop, music, house, person, envelope, phone, gear, battery, cpu, memory, network, quote
    case circle
    case circleEmpty = "circle.empty"

    /// The character drawn.
    public var glyph: String {
        switch self {
        case .sun: return "\u{2600}"
        case .moon: return "\u{263E}"
        case .cloud: return "\u{2601}"
        case .cloudSun: return "\u{263C}"
        case .cloudRain, .umbrella: return "\u{2602}"
        case .cloudSnow, .snowflake: return "\u{2744}"
        case .cloudBolt, .bolt: return "\u{03DF}"
        case .cloudFog: return "\u{2261}"
        case .wind: return "\u{224B}"
        case .flame: return "\u{2668}"
        case .leaf: return "\u{2766}"
        case .star: return "\u{2605}"
        case .starEmpty: return "\u{2606}"
        case .heart: return "\u{2665}"
        case .clock: return "\u{25F7}"
        case .timer: return "\u{25F4}"
        case .calendar: return "\u{25A6}"
        case .checkmark: return "\u{2713}"
        case .xmark: return "\u{2717}"
        case .warning: return "\u{26A0}"
        case .info: return "\u{2139}"
        case .arrowUp: return "\u{2191}"
        case .arrowDown: return "\u{2193}"
        case .arrowLeft: return "\u{2190}"
        case .arrowRight: return "\u{2192}"
        case .arrowUpRight: return "\u{2197}"
        case .arrowDownRight: return "\u{2198}"
        case .play: return "\u{25B6}"
        case .pause: return "\u{2016}"
        case .stop: return "\u{25A0}"
        case .music: return "\u{266B}"
        case .house: return "\u{2302}"
        case .person: return "\u{263A}"
        case .envelope: return "\u{2709}"
        case .phone: return "\u{260E}"
        case .gear: return "\u{2699}"
        case .battery: return "\u{25AE}"
        case .cpu: return "\u{25A3}"
        case .memory: return "\u{25A4}"
        case .network: return "\u{21C5}"
        case .quote: return "\u{201C}"
        case .circle: return "\u{25CF}"
        case .circleEmpty: return "\u{25CB}"
        }
    }
}
