import Foundation
import WidgetProtocol

/// What a rendering depends on besides the view and the content: the moment, the host's time zone, and whether to
/// draw the placeholder form. Renderers read no clock: the host passes `now`.
public struct RenderContext: Sendable {
    /// The moment rendered: `relative` and `timer` texts say what they say at this moment.
    public var now: Date
    /// The time zone of `time` and `date` texts that do not name their own.
    public var timeZone: TimeZone
    /// Draw the placeholder form: every text as bars of its length, as WidgetKit's `.redacted(reason: .placeholder)`.
    public var placeholder: Bool
    /// The entry's date, for the `@date` path; nil when unknown.
    public var entryDate: Date?
    /// The images the provider wrote for the entry, by the file name its content names (the entry's `images`), for
    /// `image` elements of source `provided`.
    public var images: [String: EntryImage]
    /// Finds a time zone by its IANA name, for date texts with a `timeZone` path.
    public var timeZoneNamed: @Sendable (String) -> TimeZone?

    public init(
        now: Date, timeZone: TimeZone = TimeZone(secondsFromGMT: 0) ?? .current, placeholder: Bool = false,
        entryDate: Date? = nil, images: [String: EntryImage] = [:],
        timeZoneNamed: @escaping @Sendable (String) -> TimeZone? = RenderContext.zoneNamed
    ) {
        self.now = now
        self.timeZone = timeZone
        self.placeholder = placeholder
        self.entryDate = entryDate
        self.images = images
        self.timeZoneNamed = timeZoneNamed
    }

    /// Foundation's zone of an IANA name, refusing names that are not plain `Area/Place` identifiers (Foundation
    /// would otherwise read a file named by the content). Zones are kept once found: a clock's zone is looked up at
    /// each of its renderings.
    public static let zoneNamed: @Sendable (String) -> TimeZone? = { name in
        zoneCache.zone(name) { lookUpZone($0) }
    }

    private static let zoneCache = ZoneCache()

    private static func lookUpZone(_ name: String) -> TimeZone? {
        guard !name.isEmpty, name.utf8.count <= 64, !name.hasPrefix("/"), !name.contains(".."),
              name.utf8.allSatisfy({ byte in
                  switch byte {
                  case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                       UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "_"), UInt8(ascii: "-"),
                       UInt8(ascii: "+"):
                      return true
                  default:
                      return false
                  }
              })
        else { return nil }
        return TimeZone(identifier: name)
    }
}

/// Time zones found by name, shared by every rendering (a lock guards it: hosts may render on several threads).
private final class ZoneCache: @unchecked Sendable {
    private let lock = NSLock()
    private var zones: [String: TimeZone?] = [:]
    /// The most names kept, so content cannot grow the cache without bound.
    private let limit = 512

    func zone(_ name: String, lookUp: (String) -> TimeZone?) -> TimeZone? {
        lock.lock()
        if let known = zones[name] {
            lock.unlock()
            return known
        }
        lock.unlock()
        let zone = lookUp(name)
        lock.lock()
        if zones.count < limit { zones[name] = zone }
        lock.unlock()
        return zone
    }
}
