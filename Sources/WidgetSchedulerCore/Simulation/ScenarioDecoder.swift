import Foundation

/// Reads a scenario from JSON, strictly: unknown keys, wrong types and impossible values are errors naming the field.
public enum ScenarioDecoder {
    /// Decodes a scenario document.
    public static func decode(_ data: Data, defaults: SchedulerSettings = SchedulerSettings()) throws -> Scenario {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw ScenarioError(path: "", message: "not valid JSON (\(describe(error)))")
        }
        let top = try object(root, "")
        try allowKeys(top, "", ["start", "duration", "settings", "widgets", "responses", "requests", "clock"])

        let startText = try string(required(top, "start", ""), "start")
        guard let start = RFC3339.date(from: startText) else {
            throw ScenarioError(path: "start", message: "expected an RFC 3339 date, found \"\(startText)\"")
        }
        guard SupportedRange.contains(date: start) else {
            throw ScenarioError(path: "start", message: "expected \(SupportedRange.datesDescription), found "
                                + "\"\(startText)\"")
        }
        let duration = try seconds(required(top, "duration", ""), "duration")
        guard duration > 0 else { throw ScenarioError(path: "duration", message: "must be > 0 seconds") }

        let settings = try decodeSettings(top["settings"], defaults: defaults)
        let widgets = try decodeWidgets(required(top, "widgets", ""))
        let kinds = Set(widgets.map(\.kind))
        let responses = try decodeResponses(required(top, "responses", ""))
        for widget in widgets where responses[widget.kind] == nil {
            throw ScenarioError(path: "responses", message: "no responses for kind \"\(widget.kind)\" of widget "
                                + "\"\(widget.id)\"")
        }
        let requests = try decodeRequests(top["requests"], widgets: Set(widgets.map(\.id)), kinds: kinds)
        let clock = try decodeClock(top["clock"])
        return Scenario(start: start, duration: duration, settings: settings, widgets: widgets,
                        responses: responses, requests: requests, clock: clock)
    }

    // MARK: - Parts

    private static func decodeSettings(_ value: Any?, defaults: SchedulerSettings) throws -> SchedulerSettings {
        var settings = defaults
        guard let value else { return settings }
        let fields = try object(value, "settings")
        let numeric: [(String, WritableKeyPath<SchedulerSettings, Double>)] = [
            ("minimumInterval", \.minimumInterval), ("dailyBudget", \.dailyBudget),
            ("burstBudget", \.burstBudget), ("backoffInitial", \.backoffInitial),
            ("backoffMaximum", \.backoffMaximum), ("coalesceWindow", \.coalesceWindow),
        ]
        let integral: [(String, WritableKeyPath<SchedulerSettings, Int>)] = [
            ("quarantineThreshold", \.quarantineThreshold), ("maxConcurrentRuns", \.maxConcurrentRuns),
        ]
        try allowKeys(fields, "settings", numeric.map(\.0) + integral.map(\.0) + ["developerKinds"])
        for (key, path) in numeric {
            if let raw = fields[key] { settings[keyPath: path] = try number(raw, "settings.\(key)") }
        }
        for (key, path) in integral {
            if let raw = fields[key] { settings[keyPath: path] = try integer(raw, "settings.\(key)") }
        }
        if let raw = fields["developerKinds"] {
            let list = try array(raw, "settings.developerKinds")
            settings.developerKinds = Set(try list.enumerated().map {
                try string($1, "settings.developerKinds[\($0)]")
            })
        }
        if let problem = settings.problems().first {
            throw ScenarioError(path: "settings", message: problem)
        }
        return settings
    }

    private static func decodeWidgets(_ value: Any) throws -> [Scenario.Widget] {
        let list = try array(value, "widgets")
        var seen: Set<String> = []
        return try list.enumerated().map { index, raw in
            let path = "widgets[\(index)]"
            let fields = try object(raw, path)
            try allowKeys(fields, path, ["id", "kind", "family", "addedAt"])
            let id = try string(required(fields, "id", path), "\(path).id")
            guard !id.isEmpty else { throw ScenarioError(path: "\(path).id", message: "must not be empty") }
            guard seen.insert(id).inserted else {
                throw ScenarioError(path: "\(path).id", message: "duplicate widget id \"\(id)\"")
            }
            let kind = try string(required(fields, "kind", path), "\(path).kind")
            let family = try fields["family"].map { try string($0, "\(path).family") } ?? "systemSmall"
            let addedAt = try fields["addedAt"].map { try seconds($0, "\(path).addedAt") } ?? 0
            return Scenario.Widget(id: id, kind: kind, family: family, addedAt: addedAt)
        }
    }

    private static func decodeResponses(_ value: Any) throws -> [String: [Scenario.Response]] {
        let fields = try object(value, "responses")
        var responses: [String: [Scenario.Response]] = [:]
        for (kind, raw) in fields {
            let list = try array(raw, "responses.\(kind)")
            guard !list.isEmpty else {
                throw ScenarioError(path: "responses.\(kind)", message: "needs at least one response")
            }
            responses[kind] = try list.enumerated().map { try decodeResponse($1, "responses.\(kind)[\($0)]") }
        }
        return responses
    }

    private static func decodeResponse(_ value: Any, _ path: String) throws -> Scenario.Response {
        let fields = try object(value, path)
        let runtime = try fields["runtime"].map { try seconds($0, "\(path).runtime") } ?? 0
        if let fail = fields["fail"] {
            try allowKeys(fields, path, ["fail", "runtime"])
            let reason = try string(fail, "\(path).fail")
            guard ["crash", "timeout", "invalid"].contains(reason) else {
                throw ScenarioError(path: "\(path).fail", message: "expected \"crash\", \"timeout\" or \"invalid\", "
                                    + "found \"\(reason)\"")
            }
            return .failure(reason: reason, runtime: runtime)
        }
        try allowKeys(fields, path, ["entries", "relevance", "policy", "runtime"])
        let entries = try array(required(fields, "entries", path), "\(path).entries").enumerated().map {
            try offset($1, "\(path).entries[\($0)]")
        }
        var relevance: [Double?] = Array(repeating: nil, count: entries.count)
        if let raw = fields["relevance"] {
            let list = try array(raw, "\(path).relevance")
            guard list.count == entries.count else {
                let scores = Counted.phrase(list.count, "score")
                let entryCount = Counted.phrase(entries.count, "entry", plural: "entries")
                throw ScenarioError(path: "\(path).relevance", message: "has \(scores) for \(entryCount)")
            }
            relevance = try list.enumerated().map { index, item in
                item is NSNull ? nil : try score(item, "\(path).relevance[\(index)]")
            }
        }
        let policy = try decodePolicy(required(fields, "policy", path), "\(path).policy")
        return .timeline(entries: entries, relevance: relevance, policy: policy, runtime: runtime)
    }

    private static func decodePolicy(_ value: Any, _ path: String) throws -> Scenario.Policy {
        if let name = value as? String {
            switch name {
            case "atEnd": return .atEnd
            case "never": return .never
            default: break
            }
        } else if let fields = value as? [String: Any], fields.count == 1, let after = fields["after"] {
            return .after(try offset(after, "\(path).after"))
        }
        throw ScenarioError(path: path, message: "expected \"atEnd\", \"never\" or {\"after\": seconds}")
    }

    private static func decodeRequests(_ value: Any?, widgets: Set<String>, kinds: Set<String>) throws
        -> [Scenario.Request]
    {
        guard let value else { return [] }
        return try array(value, "requests").enumerated().map { index, raw in
            let path = "requests[\(index)]"
            let fields = try object(raw, path)
            try allowKeys(fields, path, ["at", "kind", "all", "widget", "widgets", "foreground", "configure"])
            let at = try seconds(required(fields, "at", path), "\(path).at")
            let foreground = try fields["foreground"].map { try bool($0, "\(path).foreground") } ?? false
            let targets = ["kind", "all", "widget", "widgets"].filter { fields[$0] != nil }
            guard targets.count == 1 else {
                throw ScenarioError(path: path, message: "needs exactly one of \"kind\", \"all\", \"widget\", "
                                    + "\"widgets\"")
            }
            let target: Scenario.Target
            switch targets[0] {
            case "kind":
                let kind = try string(fields["kind"] as Any, "\(path).kind")
                guard kinds.contains(kind) else {
                    throw ScenarioError(path: "\(path).kind", message: "no widget has kind \"\(kind)\"")
                }
                target = .kind(kind)
            case "all":
                guard try bool(fields["all"] as Any, "\(path).all") else {
                    throw ScenarioError(path: "\(path).all", message: "must be true when present")
                }
                target = .all
            case "widget":
                let id = try knownWidget(fields["widget"] as Any, "\(path).widget", widgets)
                target = fields["configure"] != nil ? .configure(id) : .widgets([id])
            default:
                let list = try array(fields["widgets"] as Any, "\(path).widgets")
                target = .widgets(try list.enumerated().map { try knownWidget($1, "\(path).widgets[\($0)]", widgets) })
            }
            if let configure = fields["configure"] {
                _ = try object(configure, "\(path).configure")
                guard case .configure = target else {
                    throw ScenarioError(path: "\(path).configure", message: "goes with \"widget\" only")
                }
            }
            return Scenario.Request(at: at, target: target, foreground: foreground)
        }
    }

    private static func decodeClock(_ value: Any?) throws -> [Scenario.ClockJump] {
        guard let value else { return [] }
        return try array(value, "clock").enumerated().map { index, raw in
            let path = "clock[\(index)]"
            let fields = try object(raw, path)
            try allowKeys(fields, path, ["at", "jump"])
            let at = try seconds(required(fields, "at", path), "\(path).at")
            return Scenario.ClockJump(at: at, jump: try offset(required(fields, "jump", path), "\(path).jump"))
        }
    }

    // MARK: - Typed access with paths

    private static func knownWidget(_ value: Any, _ path: String, _ widgets: Set<String>) throws -> String {
        let id = try string(value, path)
        guard widgets.contains(id) else { throw ScenarioError(path: path, message: "no widget has id \"\(id)\"") }
        return id
    }

    private static func required(_ fields: [String: Any], _ key: String, _ path: String) throws -> Any {
        guard let value = fields[key] else {
            throw ScenarioError(path: path.isEmpty ? key : "\(path).\(key)", message: "is required")
        }
        return value
    }

    private static func allowKeys(_ fields: [String: Any], _ path: String, _ allowed: [String]) throws {
        for key in fields.keys.sorted() where !allowed.contains(key) {
            throw ScenarioError(path: path.isEmpty ? key : "\(path).\(key)",
                                message: "unknown field (expected one of: \(allowed.joined(separator: ", ")))")
        }
    }

    private static func object(_ value: Any, _ path: String) throws -> [String: Any] {
        guard let fields = value as? [String: Any] else { throw mismatch(path, "an object", value) }
        return fields
    }

    private static func array(_ value: Any, _ path: String) throws -> [Any] {
        guard let list = value as? [Any] else { throw mismatch(path, "an array", value) }
        return list
    }

    private static func string(_ value: Any, _ path: String) throws -> String {
        guard let text = value as? String else { throw mismatch(path, "a string", value) }
        return text
    }

    private static func number(_ value: Any, _ path: String) throws -> Double {
        guard let number = value as? NSNumber, !isBoolean(number), number.doubleValue.isFinite else {
            throw mismatch(path, "a number", value)
        }
        return number.doubleValue
    }

    /// A duration or a time since the scenario's start: a number of seconds in `SupportedRange.durations`.
    private static func seconds(_ value: Any, _ path: String) throws -> Double {
        try number(value, path, within: SupportedRange.contains(duration:), SupportedRange.durationsDescription)
    }

    /// A signed number of seconds (an entry's date after its run, a clock jump): at most the longest supported
    /// duration either way.
    private static func offset(_ value: Any, _ path: String) throws -> Double {
        try number(value, path, within: { abs($0) <= SupportedRange.longestDuration },
                   "a number of seconds within ±\(SupportedRange.longestDuration)")
    }

    /// A relevance score: `SupportedRange.contains(score:)`.
    private static func score(_ value: Any, _ path: String) throws -> Double {
        try number(value, path, within: SupportedRange.contains(score:), SupportedRange.scoresDescription)
    }

    /// A number that `within` accepts, or an error saying it must be `expected`.
    private static func number(_ value: Any, _ path: String, within: (Double) -> Bool, _ expected: String) throws
        -> Double
    {
        let number = try number(value, path)
        guard within(number) else {
            throw ScenarioError(path: path, message: "must be \(expected), found \(value as? NSNumber ?? 0)")
        }
        return number
    }

    private static func integer(_ value: Any, _ path: String) throws -> Int {
        let double = try number(value, path)
        guard double == double.rounded(), abs(double) < 1e15 else { throw mismatch(path, "an integer", value) }
        return Int(double)
    }

    private static func bool(_ value: Any, _ path: String) throws -> Bool {
        guard let number = value as? NSNumber, isBoolean(number) else { throw mismatch(path, "true or false", value) }
        return number.boolValue
    }

    private static func isBoolean(_ number: NSNumber) -> Bool {
        // JSONSerialization hands booleans back as NSNumber whose ObjC type is 'c' (char); numbers are never 'c'.
        String(cString: number.objCType) == "c"
    }

    private static func mismatch(_ path: String, _ expected: String, _ found: Any) -> ScenarioError {
        ScenarioError(path: path, message: "expected \(expected), found \(typeName(found))")
    }

    private static func typeName(_ value: Any) -> String {
        switch value {
        case is NSNull: return "null"
        case let number as NSNumber: return isBoolean(number) ? "a boolean" : "the number \(number)"
        case let text as String: return "the string \"\(text)\""
        case is [Any]: return "an array"
        case is [String: Any]: return "an object"
        default: return "\(type(of: value))"
        }
    }

    private static func describe(_ error: Error) -> String {
        let text = "\(error)"
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }
}
