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
            let entries = try timeline.entries.map(entryObject)
            return try encode(["entries": .array(entries), "policy": policy(timeline.policy)])
        case "snapshot":
            return try encode(["entry": entryObject(await provider.snapshot(in: context))])
        case "placeholder":
            return try encode(["entry": entryObject(provider.placeholder(in: context))])
        case "defaults":
            return try encode(["configuration": .object(await provider.defaultConfiguration(in: context))])
        case "options":
            let options = await provider.options(for: request.parameter ?? "", search: request.search, in: context)
            return try encode(["options": .array(options.map(optionObject))])
        default:
            throw ProviderKitError.unknownRequest(request.request)
        }
    }

    private static func entryObject(_ entry: some TimelineEntry) throws -> ParameterValue {
        var object: [String: ParameterValue] = ["date": .string(ProtocolDate.string(entry.date))]
        if let relevance = entry.relevance {
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

    private static func policy(_ policy: TimelineReloadPolicy) -> ParameterValue {
        switch policy {
        case .atEnd: return "atEnd"
        case .never: return "never"
        case .after(let date): return .object(["after": .string(ProtocolDate.string(date))])
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
