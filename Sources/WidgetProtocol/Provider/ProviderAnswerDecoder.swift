import Foundation
import WidgetSchedulerCore

/// Decodes and strictly validates what a provider printed on stdout.
///
/// Every failure is a `ProviderAnswerError` value naming the entry and field at fault; nothing here throws or traps
/// on bad input. Entry content is kept as compact JSON text with sorted keys.
public enum ProviderAnswerDecoder {
    /// The most entries a timeline may have, as the protocol documents.
    public static let defaultMaxEntries = 1000

    /// Decodes the answer to a request of `kind`.
    public static func answer(
        to kind: ProviderRequestKind,
        from bytes: [UInt8],
        maxEntries: Int = defaultMaxEntries
    ) -> Result<ProviderAnswer, ProviderAnswerError> {
        switch kind {
        case .timeline: return timeline(from: bytes, maxEntries: maxEntries).map(ProviderAnswer.timeline)
        case .snapshot, .placeholder: return entry(from: bytes).map(ProviderAnswer.entry)
        case .defaults: return configuration(from: bytes).map(ProviderAnswer.configuration)
        case .options: return options(from: bytes).map(ProviderAnswer.options)
        }
    }

    /// Decodes a timeline answer: `{"entries": [...], "policy": "atEnd" | "never" | {"after": date}}`.
    ///
    /// The entries come back sorted by date; two entries with the same date are an error.
    public static func timeline(
        from bytes: [UInt8],
        maxEntries: Int = defaultMaxEntries
    ) -> Result<Timeline, ProviderAnswerError> {
        do {
            let object = try topLevelObject(bytes, fields: ["entries", "policy"])
            guard let entriesValue = object["entries"] else { throw ProviderAnswerError.missingField("entries") }
            guard case .array(let values) = entriesValue else {
                let found = entriesValue.typeName
                throw ProviderAnswerError.wrongType(field: "entries", expected: "an array", found: found)
            }
            guard values.count <= maxEntries else {
                throw ProviderAnswerError.tooManyEntries(count: values.count, limit: maxEntries)
            }
            guard !values.isEmpty else { throw ProviderAnswerError.noEntries }
            guard let policyValue = object["policy"] else { throw ProviderAnswerError.missingField("policy") }
            let policy = try reloadPolicy(policyValue)
            var entries: [(index: Int, entry: TimelineEntry)] = []
            entries.reserveCapacity(values.count)
            for (index, value) in values.enumerated() {
                entries.append((index, try entry(value, index: index)))
            }
            // A stable sort keeps equal dates in answer order, so the duplicate named is the later one.
            entries.sort { $0.entry.date < $1.entry.date || ($0.entry.date == $1.entry.date && $0.index < $1.index) }
            for position in entries.indices.dropFirst() {
                let (previous, current) = (entries[position - 1], entries[position])
                guard current.entry.date == previous.entry.date else { continue }
                throw ProviderAnswerError.duplicateDate(
                    entry: current.index, date: RFC3339.string(from: current.entry.date), sameAs: previous.index
                )
            }
            return .success(Timeline(entries: entries.map(\.entry), policy: policy))
        } catch let error as ProviderAnswerError {
            return .failure(error)
        } catch {
            return .failure(.notJSON(detail: "\(error)"))
        }
    }

    /// Decodes a snapshot or placeholder answer: `{"entry": {...}}`.
    public static func entry(from bytes: [UInt8]) -> Result<TimelineEntry, ProviderAnswerError> {
        run {
            let object = try topLevelObject(bytes, fields: ["entry"])
            guard let value = object["entry"] else { throw ProviderAnswerError.missingField("entry") }
            return try entry(value, index: nil)
        }
    }

    /// Decodes a defaults answer: `{"configuration": {...}}`.
    public static func configuration(from bytes: [UInt8]) -> Result<[String: JSONValue], ProviderAnswerError> {
        run {
            let object = try topLevelObject(bytes, fields: ["configuration"])
            guard let value = object["configuration"] else { throw ProviderAnswerError.missingField("configuration") }
            guard case .object(let configuration) = value else {
                let found = value.typeName
                throw ProviderAnswerError.wrongType(field: "configuration", expected: "an object", found: found)
            }
            return configuration
        }
    }

    /// Decodes an options answer: `{"options": [{"value": ..., "title": "...", "subtitle": "..."}]}`.
    public static func options(from bytes: [UInt8]) -> Result<[ParameterOption], ProviderAnswerError> {
        run {
            let object = try topLevelObject(bytes, fields: ["options"])
            guard let value = object["options"] else { throw ProviderAnswerError.missingField("options") }
            guard case .array(let values) = value else {
                throw ProviderAnswerError.wrongType(field: "options", expected: "an array", found: value.typeName)
            }
            return try values.enumerated().map { index, value in try option(value, index: index) }
        }
    }

    // MARK: - Parts

    private static func run<Value>(_ body: () throws -> Value) -> Result<Value, ProviderAnswerError> {
        do {
            return .success(try body())
        } catch let error as ProviderAnswerError {
            return .failure(error)
        } catch {
            return .failure(.notJSON(detail: "\(error)"))
        }
    }

    private static func topLevelObject(_ bytes: [UInt8], fields: [String]) throws -> [String: JSONValue] {
        let value = try parse(bytes)
        guard case .object(let object) = value else { throw ProviderAnswerError.notAnObject(found: value.typeName) }
        if let unknown = firstUnknownKey(of: object, allowed: { fields.contains($0) }) {
            throw ProviderAnswerError.unknownField(unknown)
        }
        return object
    }

    /// The first key, in sorted order, that `allowed` refuses; nil if it accepts them all. The keys are sorted only
    /// when one is refused, so the name reported does not depend on the dictionary's order.
    private static func firstUnknownKey(of object: [String: JSONValue], allowed: (String) -> Bool) -> String? {
        guard object.keys.contains(where: { !allowed($0) }) else { return nil }
        return object.keys.sorted().first { !allowed($0) }
    }

    private static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw ProviderAnswerError.notJSON(detail: "the output is empty")
        }
        switch JSONValue.parse(bytes) {
        case .success(let value):
            return value
        case .failure(.duplicateKey(let duplicate)):
            throw ProviderAnswerError.duplicateKey(duplicate)
        case .failure(.notJSON):
            throw ProviderAnswerError.notJSON(detail: syntaxErrorDetail(bytes) ?? "not a single JSON value")
        }
    }

    // JSONDecoder on Linux drops the parser's position; JSONSerialization keeps it ("Invalid value around line 1,
    // column 5."), so it is asked again on this failure path only.
    private static func syntaxErrorDetail(_ bytes: [UInt8]) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
            return nil
        } catch {
            let description = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            return description ?? error.localizedDescription
        }
    }

    private static func entry(_ value: JSONValue, index: Int?) throws -> TimelineEntry {
        guard case .object(let object) = value else {
            throw ProviderAnswerError.entryNotAnObject(entry: index, found: value.typeName)
        }
        let known = { (key: String) in key == "date" || key == "content" || key == "relevance" }
        if let unknown = firstUnknownKey(of: object, allowed: known) {
            throw ProviderAnswerError.entryUnknownField(entry: index, field: unknown)
        }
        guard let dateValue = object["date"] else {
            throw ProviderAnswerError.entryMissingField(entry: index, field: "date")
        }
        guard case .string(let dateText) = dateValue else {
            throw ProviderAnswerError.entryInvalidField(
                entry: index, field: "date", expected: "an RFC 3339 date string", found: dateValue.summary
            )
        }
        guard let date = RFC3339.date(from: dateText) else {
            throw ProviderAnswerError.entryInvalidDate(entry: index, text: dateText)
        }
        guard SupportedRange.contains(date: date) else {
            throw ProviderAnswerError.entryDateOutOfRange(entry: index, text: dateText)
        }
        guard let content = object["content"] else {
            throw ProviderAnswerError.entryMissingField(entry: index, field: "content")
        }
        var relevance: TimelineEntryRelevance?
        if let relevanceValue = object["relevance"], relevanceValue != .null {
            relevance = try self.relevance(relevanceValue, index: index)
        }
        return TimelineEntry(date: date, relevance: relevance, content: content.jsonText())
    }

    private static func relevance(_ value: JSONValue, index: Int?) throws -> TimelineEntryRelevance {
        guard case .object(let object) = value else {
            throw ProviderAnswerError.entryInvalidField(
                entry: index, field: "relevance", expected: "an object {\"score\", \"duration\"}", found: value.summary
            )
        }
        if let unknown = firstUnknownKey(of: object, allowed: { $0 == "score" || $0 == "duration" }) {
            throw ProviderAnswerError.entryUnknownField(entry: index, field: "relevance.\(unknown)")
        }
        guard let scoreValue = object["score"] else {
            throw ProviderAnswerError.entryMissingField(entry: index, field: "relevance.score")
        }
        guard let score = number(scoreValue), SupportedRange.contains(score: score) else {
            throw ProviderAnswerError.entryInvalidField(
                entry: index, field: "relevance.score", expected: SupportedRange.scoresDescription,
                found: scoreValue.summary
            )
        }
        var duration = 0.0
        if let durationValue = object["duration"] {
            guard let seconds = number(durationValue), SupportedRange.contains(duration: seconds) else {
                throw ProviderAnswerError.entryInvalidField(
                    entry: index, field: "relevance.duration", expected: SupportedRange.durationsDescription,
                    found: durationValue.summary
                )
            }
            duration = seconds
        }
        return TimelineEntryRelevance(score: score, duration: duration)
    }

    private static func reloadPolicy(_ value: JSONValue) throws -> ReloadPolicy {
        switch value {
        case .string("atEnd"): return .atEnd
        case .string("never"): return .never
        case .object(let object) where object.count == 1:
            guard let after = object["after"] else { throw ProviderAnswerError.invalidPolicy(found: value.summary) }
            guard case .string(let text) = after else { throw ProviderAnswerError.invalidPolicy(found: value.summary) }
            guard let date = RFC3339.date(from: text) else {
                throw ProviderAnswerError.invalidPolicyDate(text: text)
            }
            guard SupportedRange.contains(date: date) else {
                throw ProviderAnswerError.policyDateOutOfRange(text: text)
            }
            return .after(date)
        default:
            throw ProviderAnswerError.invalidPolicy(found: value.summary)
        }
    }

    private static func option(_ value: JSONValue, index: Int) throws -> ParameterOption {
        guard case .object(let object) = value else {
            let problem = "must be an object, found \(value.typeName)"
            throw ProviderAnswerError.invalidOption(option: index, problem: problem)
        }
        if let unknown = firstUnknownKey(of: object, allowed: { $0 == "value" || $0 == "title" || $0 == "subtitle" }) {
            throw ProviderAnswerError.invalidOption(option: index, problem: "unknown field \"\(unknown)\"")
        }
        guard let optionValue = object["value"], optionValue != .null else {
            throw ProviderAnswerError.invalidOption(option: index, problem: "missing \"value\"")
        }
        guard let titleValue = object["title"] else {
            throw ProviderAnswerError.invalidOption(option: index, problem: "missing \"title\"")
        }
        guard case .string(let title) = titleValue else {
            throw ProviderAnswerError.invalidOption(
                option: index, problem: "\"title\" must be a string, found \(titleValue.summary)"
            )
        }
        var subtitle: String?
        if let subtitleValue = object["subtitle"], subtitleValue != .null {
            guard case .string(let text) = subtitleValue else {
                throw ProviderAnswerError.invalidOption(
                    option: index, problem: "\"subtitle\" must be a string, found \(subtitleValue.summary)"
                )
            }
            subtitle = text
        }
        return ParameterOption(value: optionValue, title: title, subtitle: subtitle)
    }

    private static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .integer(let integer): return Double(integer)
        case .number(let number): return number
        default: return nil
        }
    }
}
