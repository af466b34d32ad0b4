import Foundation
import WidgetProtocol
import WidgetSchedulerCore

/// Renders a validated answer for people (`run-provider`) or as normalized JSON (`run-provider --json`).
public enum ProviderAnswerFormatter {
    /// The answer as the protocol's JSON, normalized: sorted keys, entries sorted by date, dates in UTC.
    public static func json(_ answer: ProviderAnswer) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(jsonValue(answer)) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The answer as JSON values, as a provider would have written it.
    public static func jsonValue(_ answer: ProviderAnswer) -> JSONValue {
        switch answer {
        case .timeline(let timeline):
            return .object([
                "entries": .array(timeline.entries.map(entryValue)), "policy": policyValue(timeline.policy),
            ])
        case .entry(let entry):
            return .object(["entry": entryValue(entry)])
        case .configuration(let configuration):
            return .object(["configuration": .object(configuration)])
        case .options(let options):
            return .object(["options": .array(options.map(optionValue))])
        }
    }

    /// A readable rendering: one line per entry, option or configuration value.
    public static func text(_ answer: ProviderAnswer) -> String {
        var lines: [String] = []
        switch answer {
        case .timeline(let timeline):
            let count = timeline.entries.count
            let entries = count == 1 ? "entry" : "entries"
            lines.append("timeline: \(count) \(entries), policy \(timeline.policy.summary)")
            for entry in timeline.entries {
                lines.append("  " + entryText(entry))
                lines += imageLines(entry, indent: "    ")
            }
        case .entry(let entry):
            lines.append("entry: " + entryText(entry))
            lines += imageLines(entry, indent: "  ")
        case .configuration(let configuration):
            lines.append("configuration:")
            lines += configuration.keys.sorted().map { "  \($0) = \(configuration[$0]?.jsonText() ?? "null")" }
        case .options(let options):
            lines.append("options: \(options.count)")
            lines += options.map { option in
                "  \(option.value.jsonText())  \(option.title)" + (option.subtitle.map { " (\($0))" } ?? "")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func entryValue(_ entry: TimelineEntry) -> JSONValue {
        var object: [String: JSONValue] = [
            "date": .string(RFC3339.string(from: entry.date)),
            "content": JSONValue(jsonText: entry.content) ?? .string(entry.content),
        ]
        if let relevance = entry.relevance {
            object["relevance"] = .object(["score": .number(relevance.score), "duration": .number(relevance.duration)])
        }
        // The images the daemon found for the entry, as the control API gives them.
        if !entry.images.isEmpty { object["images"] = EntryImage.jsonValue(entry.images) }
        return .object(object)
    }

    private static func policyValue(_ policy: ReloadPolicy) -> JSONValue {
        switch policy {
        case .atEnd: return .string("atEnd")
        case .never: return .string("never")
        case .after(let date): return .object(["after": .string(RFC3339.string(from: date))])
        }
    }

    private static func optionValue(_ option: ParameterOption) -> JSONValue {
        var object: [String: JSONValue] = ["value": option.value, "title": .string(option.title)]
        if let subtitle = option.subtitle { object["subtitle"] = .string(subtitle) }
        return .object(object)
    }

    private static func entryText(_ entry: TimelineEntry) -> String {
        var text = RFC3339.string(from: entry.date)
        if let relevance = entry.relevance {
            text += "  relevance \(number(relevance.score)) for \(number(relevance.duration)) s"
        }
        return text + "  " + entry.content
    }

    /// A line per image of the entry: `image cat.jpg: image/jpeg 640×480, 51234 bytes, sha256 9f86…`.
    private static func imageLines(_ entry: TimelineEntry, indent: String) -> [String] {
        entry.images.keys.sorted().compactMap { name in
            entry.images[name].map { image in
                "\(indent)image \(JSONValue.string(name).jsonText()): \(image.contentType) "
                    + "\(image.width)×\(image.height), \(image.byteCount) bytes, sha256 \(image.sha256)"
            }
        }
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
