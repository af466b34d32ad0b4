import Foundation

/// Builds the JSON answer to a request from a provider's values.
enum AnswerEncoder {
    static func answer<Provider: TimelineProvider>(
        to request: ProviderRequestMessage,
        with provider: Provider,
        in context: TimelineProviderContext
    ) async throws -> Data {
        switch request.request {
        case "timeline":
            let timeline = await provider.timeline(in: context)
            let entries = try timeline.entries.enumerated().map { try entryObject($1, name: "entry \($0)") }
            return try encode(["entries": .array(entries), "policy": try policy(timeline.policy)])
        case "snapshot":
            return try encode(["entry": entryObject(await provider.snapshot(in: context), name: "entry")])
        case "placeholder":
            return try encode(["entry": entryObject(provider.placeholder(in: context), name: "entry")])
        case "defaults":
            return try encode(["configuration": .object(await provider.defaultConfiguration(in: context))])
        case "options":
            let options = await provider.options(for: request.parameter ?? "", search: request.search, in: context)
            return try encode(["options": .array(options.map(optionObject))])
        default:
            throw ProviderKitError.unknownRequest(request.request)
        }
    }

    /// The entry in the wire shape; `name` ("entry 3") names it in an error. A date, score or duration the daemon
    /// would refuse is refused here, where the provider's author sees why.
    private static func entryObject(_ entry: some TimelineEntry, name: String) throws -> ParameterValue {
        try checkDate(entry.date, "\(name): date")
        var object: [String: ParameterValue] = ["date": .string(ProtocolDate.string(entry.date))]
        if let relevance = entry.relevance {
            guard relevance.score.isFinite else {
                throw ProviderKitError.outOfRange("\(name): relevance score \(relevance.score) is not a finite number")
            }
            guard relevance.duration >= 0, relevance.duration <= ProtocolDate.longestDuration else {
                throw ProviderKitError.outOfRange("\(name): relevance duration \(relevance.duration) s is not from 0 "
                                                  + "to \(ProtocolDate.longestDuration) s")
            }
            object["relevance"] = .object([
                "score": .number(Double(relevance.score)), "duration": .number(relevance.duration),
            ])
        }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ProtocolDate.string(date))
        }
        do {
            let data = try encoder.encode(entry)
            object["content"] = try JSONDecoder().decode(ParameterValue.self, from: data)
        } catch {
            throw ProviderKitError.encoding("\(error)")
        }
        return .object(object)
    }

    private static func optionObject(_ option: ParameterOption) -> ParameterValue {
        var object: [String: ParameterValue] = ["value": option.value, "title": .string(option.title)]
        if let subtitle = option.subtitle { object["subtitle"] = .string(subtitle) }
        return .object(object)
    }

    private static func policy(_ policy: TimelineReloadPolicy) throws -> ParameterValue {
        switch policy {
        case .atEnd: return "atEnd"
        case .never: return "never"
        case .after(let date):
            try checkDate(date, "policy: after")
            return .object(["after": .string(ProtocolDate.string(date))])
        }
    }

    private static func checkDate(_ date: Date, _ field: String) throws {
        guard ProtocolDate.supported.contains(date) else {
            throw ProviderKitError.outOfRange("\(field) \(date.timeIntervalSince1970) s after 1970 is not a date "
                                              + ProtocolDate.supportedDescription)
        }
    }

    private static func encode(_ object: [String: ParameterValue]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(ParameterValue.object(object))
        } catch {
            throw ProviderKitError.encoding("\(error)")
        }
    }
}
