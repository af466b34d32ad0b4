import Foundation
import WidgetProtocol
import WidgetSchedulerCore

extension Timeline {
    /// The timeline as stored in the `timeline` table: the JSON of its `Codable` form (dates as seconds since 2001,
    /// the policy as Swift's enum coding), which `JSONDecoder` reads back. Written by hand, as the daemon stores one
    /// per run and `JSONEncoder` was a twentieth of its time; a test pins the round trip.
    func storedJSON() -> String {
        var output = JSONBytesWriter(reservingCapacity: 64 + entries.count * 96)
        output.raw("{\"entries\":[")
        for (index, entry) in entries.enumerated() {
            output.raw(index == 0 ? "{\"content\":" : ",{\"content\":")
            output.string(entry.content)
            output.raw(",\"date\":")
            output.number(entry.date.timeIntervalSinceReferenceDate)
            if !entry.images.isEmpty {
                output.raw(",\"images\":")
                output.value(EntryImage.jsonValue(entry.images))
            }
            if let relevance = entry.relevance {
                output.raw(",\"relevance\":{\"duration\":")
                output.number(relevance.duration)
                output.raw(",\"score\":")
                output.number(relevance.score)
                output.raw("}")
            }
            output.raw("}")
        }
        switch policy {
        case .atEnd: output.raw("],\"policy\":{\"atEnd\":{}}}")
        case .never: output.raw("],\"policy\":{\"never\":{}}}")
        case .after(let date):
            output.raw("],\"policy\":{\"after\":{\"_0\":")
            output.number(date.timeIntervalSinceReferenceDate)
            output.raw("}}}")
        }
        return String(decoding: output.bytes, as: UTF8.self)
    }

    /// Reads a timeline as the store keeps it: written by `storedJSON()`, or by `JSONEncoder` in earlier versions.
    /// That shape is read from the parsed `JSONValue`, much faster than `JSONDecoder` reads it, which matters because
    /// a burst of entry changes reads one timeline per changing widget; anything else
    /// is left to `JSONDecoder`, which reads it as before or throws its error naming the key at fault. A date or
    /// relevance out of the supported range, or dates out of order, throw `StoredValueError` naming the entry.
    init(storedJSON text: String) throws {
        if let value = JSONValue(jsonText: text), let timeline = Self.timeline(stored: value) {
            self = timeline
        } else {
            // A key given twice (which JSONDecoder reads keeping one value) was not written here: damage.
            if let duplicate = JSONDuplicateKey.first(in: Array(text.utf8)) {
                let field = duplicate.path.isEmpty ? duplicate.key : "\(duplicate.path).\(duplicate.key)"
                throw StoredValueError(field: field, value: "given more than once", expected: "a key given once")
            }
            self = try JSONDecoder().decode(Timeline.self, from: Data(text.utf8))
        }
        try StoredValueError.timeline(dates: entries.map(\.date), relevances: entries.map(\.relevance),
                                      policy: policy)
        for (index, entry) in entries.enumerated() {
            for (name, image) in entry.images where !image.isPlausible {
                throw StoredValueError(field: "entries[\(index)].images.\(name)", value: "\(image)",
                                       expected: "an image as the daemon stores one")
            }
        }
    }

    /// The entry dated `date` of a timeline as the store keeps it, or nil when none is. A burst of entry changes reads
    /// one stored timeline per changing widget for one entry each, and a long timeline's other entries are most of
    /// its bytes: where the text has the stored shape, that entry alone is parsed, found by date among the others
    /// passed over (`JSONRanges`). Anywhere else the whole timeline is read, as `init(storedJSON:)` reads it, errors
    /// included.
    static func storedEntry(dated date: Date, in text: String) throws -> TimelineEntry? {
        var text = text
        if let entry = text.withUTF8({ Self.entryAlone(dated: date.timeIntervalSinceReferenceDate, in: $0) }) {
            return entry
        }
        return try Timeline(storedJSON: text).entries.first { $0.date == date }
    }

    /// The entry dated `seconds` (since 2001), parsed alone, or nil when the scan is unsure or finds none. The entries
    /// are searched by halves, as the store keeps their dates ascending; the one found is parsed strictly and must
    /// carry that date, a relevance in range and plausible images.
    static func entryAlone(dated seconds: Double, in bytes: UnsafeBufferPointer<UInt8>) -> TimelineEntry? {
        guard let items = JSONRanges.items(ofArrayMember: "entries", in: bytes) else { return nil }
        var low = 0
        var high = items.count
        while low < high {
            let middle = (low + high) / 2
            guard let range = JSONRanges.member("date", ofObjectIn: items[middle], of: bytes),
                  let itemSeconds = JSONRanges.value(in: range, of: bytes)?.storedDouble else { return nil }
            if itemSeconds < seconds {
                low = middle + 1
            } else if itemSeconds > seconds {
                high = middle
            } else {
                guard let value = JSONRanges.value(in: items[middle], of: bytes), let entry = entry(stored: value),
                      entry.images.values.allSatisfy(\.isPlausible),
                      entry.relevance.map({ (try? StoredValueError.relevance($0, "")) != nil }) ?? true
                else { return nil }
                return entry
            }
        }
        return nil
    }

    /// The timeline `JSONDecoder` would decode from `value` (the synthesized `Codable` form: dates as seconds since
    /// 2001, the policy as an enum's keyed form), or nil where the shape is not exactly that.
    static func timeline(stored value: JSONValue) -> Timeline? {
        guard case .object(let members) = value, case .array(let items)? = members["entries"],
              let policy = reloadPolicy(stored: members["policy"]) else { return nil }
        var entries: [TimelineEntry] = []
        entries.reserveCapacity(items.count)
        for item in items {
            guard let entry = entry(stored: item) else { return nil }
            entries.append(entry)
        }
        // As the decoder does: the entries as stored, not sorted again.
        var timeline = Timeline(entries: [], policy: policy)
        timeline.entries = entries
        return timeline
    }

    /// The entry `JSONDecoder` would decode from `value`, or nil where the shape is not exactly that.
    static func entry(stored value: JSONValue) -> TimelineEntry? {
        guard case .object(let fields) = value, case .string(let content)? = fields["content"],
              let seconds = fields["date"]?.storedDouble else { return nil }
        var relevance: TimelineEntryRelevance?
        switch fields["relevance"] {
        case nil, .null?:
            break
        case .object(let relevanceFields)?:
            guard let score = relevanceFields["score"]?.storedDouble,
                  let duration = relevanceFields["duration"]?.storedDouble else { return nil }
            relevance = TimelineEntryRelevance(score: score, duration: duration)
        default:
            return nil
        }
        var images: [String: EntryImage] = [:]
        switch fields["images"] {
        case nil:
            break
        case .object(let members)?:
            for (name, member) in members {
                guard let image = EntryImage(stored: member) else { return nil }
                images[name] = image
            }
        default:
            return nil
        }
        return TimelineEntry(date: Date(timeIntervalSinceReferenceDate: seconds), relevance: relevance,
                             content: content, images: images)
    }

    private static func reloadPolicy(stored value: JSONValue?) -> ReloadPolicy? {
        guard case .object(let members)? = value, members.count == 1, let (name, payload) = members.first,
              case .object(let fields) = payload else { return nil }
        switch name {
        case "atEnd": return .atEnd
        case "never": return .never
        case "after": return fields["_0"]?.storedDouble.map { .after(Date(timeIntervalSinceReferenceDate: $0)) }
        default: return nil
        }
    }
}

private extension JSONValue {
    /// A number as `JSONDecoder` reads it into a `Double`: an integer or a finite number.
    var storedDouble: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: return nil
        }
    }
}

extension EntryImage {
    /// The image as `storedJSON()` writes it, or nil where the shape is not exactly that: then `JSONDecoder` reads the
    /// timeline and says what is wrong.
    init?(stored value: JSONValue) {
        guard case .object(let fields) = value, case .string(let sha256)? = fields["sha256"],
              case .string(let contentType)? = fields["contentType"], case .integer(let width)? = fields["width"],
              case .integer(let height)? = fields["height"], case .integer(let byteCount)? = fields["byteCount"],
              let width = Int(exactly: width), let height = Int(exactly: height),
              let byteCount = Int(exactly: byteCount) else { return nil }
        self.init(sha256: sha256, contentType: contentType, width: width, height: height, byteCount: byteCount)
    }
}
