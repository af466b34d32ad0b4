/// Why a provider run happens. Exempt reasons spend no token and ignore the floor; the others are budgeted.
public enum RunReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// The widget was just added.
    case initial
    /// Its parameters changed.
    case configuration
    /// An explicit request marked foreground.
    case foreground
    /// Its timeline's reload policy came due.
    case policy
    /// `reloadTimelines(ofKind:)` or reload-all from the background.
    case explicit
    /// After a failure.
    case retry

    /// Whether a run for this reason spends a token and waits for the floor.
    public var isBudgeted: Bool {
        switch self {
        case .initial, .configuration, .foreground: return false
        case .policy, .explicit, .retry: return true
        }
    }

    /// Exempt reasons outrank budgeted ones when two are merged into one pending run.
    var priority: Int {
        switch self {
        case .initial: return 5
        case .configuration: return 4
        case .foreground: return 3
        case .explicit: return 2
        case .policy: return 1
        case .retry: return 0
        }
    }
}
