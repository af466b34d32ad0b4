import Foundation
import WidgetProtocol

/// A real provider, in Python, whose behaviour each test sets per kind through `behaviour-<kind>.json` in the
/// providers directory (its working directory), read afresh on every run. Every run appends its start and end to
/// `runs.log` there, so tests can see what really ran and when. Timeline entries carry `{"n", "configuration",
/// "data"}`: the entry's position, the widget's configuration and the group's shared data, as the provider saw them.
public enum ScriptedProvider {
    /// The script's file name in the providers directory.
    public static let fileName = "scripted.py"

    /// What the provider does for one kind.
    public struct Behaviour: Encodable {
        /// Entry dates, in seconds after the request's `context.now`.
        public var entryOffsets: [Double] = [0]
        /// Relevance scores, one per entry, or none.
        public var relevance: [Double]?
        /// `never`, `atEnd`, or a number of seconds after `context.now` for `{"after": date}`.
        public var policy: JSONValue = .string("never")
        /// Seconds to sleep before answering.
        public var sleep: Double = 0
        /// A non-zero exit status makes every request fail.
        public var exitStatus: Int = 0
        /// The `defaults` answer; nil makes the `defaults` request fail (exit 1).
        public var defaults: [String: JSONValue]?
        /// The `options` answer, filtered by `search` on the titles.
        public var options: [JSONValue] = []

        public init(
            entryOffsets: [Double] = [0], relevance: [Double]? = nil, policy: JSONValue = .string("never"),
            sleep: Double = 0, exitStatus: Int = 0, defaults: [String: JSONValue]? = nil, options: [JSONValue] = []
        ) {
            self.entryOffsets = entryOffsets
            self.relevance = relevance
            self.policy = policy
            self.sleep = sleep
            self.exitStatus = exitStatus
            self.defaults = defaults
            self.options = options
        }
    }

    /// One line of `runs.log`.
    public struct Run: Equatable {
        public var kind: String
        public var widget: String
        public var request: String
        public var reason: String
        public var event: String
        public var time: Double
    }

    public static let source = #"""
        #!/usr/bin/python3
        import json, os, sys, time
        from datetime import datetime, timedelta, timezone

        request = json.load(sys.stdin)
        kind = request["kind"]
        try:
            with open(f"behaviour-{kind}.json") as f:
                behaviour = json.load(f)
        except FileNotFoundError:
            behaviour = {}
        widget = request.get("widget") or {}
        reason = request["context"].get("reason", "-")

        def log(event):
            with open("runs.log", "a") as f:
                f.write(f"{kind} {widget.get('id') or '-'} {request['request']} {reason} {event} {time.time():.6f}\n")

        def date_text(date):
            return date.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")

        log("start")
        time.sleep(behaviour.get("sleep", 0))
        if behaviour.get("exitStatus", 0):
            log("fail")
            print("failing as the test asked", file=sys.stderr)
            sys.exit(behaviour["exitStatus"])
        now = datetime.fromisoformat(request["context"]["now"].replace("Z", "+00:00"))
        data = {}
        data_directory = request["context"].get("dataDirectory")
        if data_directory and os.path.isdir(data_directory):
            for name in sorted(os.listdir(data_directory)):
                with open(os.path.join(data_directory, name)) as f:
                    data[name] = json.load(f)["value"]
        if request["request"] == "timeline":
            entries = []
            for number, offset in enumerate(behaviour.get("entryOffsets", [0])):
                entry = {"date": date_text(now + timedelta(seconds=offset)),
                         "content": {"n": number, "configuration": widget.get("configuration", {}), "data": data}}
                if behaviour.get("relevance"):
                    entry["relevance"] = {"score": behaviour["relevance"][number], "duration": 0}
                entries.append(entry)
            policy = behaviour.get("policy", "never")
            if isinstance(policy, (int, float)):
                policy = {"after": date_text(now + timedelta(seconds=policy))}
            answer = {"entries": entries, "policy": policy}
        elif request["request"] in ("snapshot", "placeholder"):
            answer = {"entry": {"date": date_text(now), "content": {"placeholder": True}}}
        elif request["request"] == "defaults":
            if "defaults" not in behaviour:
                log("fail")
                print("no defaults today", file=sys.stderr)
                sys.exit(1)
            answer = {"configuration": behaviour["defaults"]}
        elif request["request"] == "options":
            search = (request.get("search") or "").lower()
            answer = {"options": [o for o in behaviour.get("options", []) if search in o["title"].lower()]}
        else:
            sys.exit(2)
        print(json.dumps(answer))
        log("end")
        """#

    /// Parses `runs.log`.
    public static func runs(in directory: URL) -> [Run] {
        let text = (try? String(contentsOf: directory.appendingPathComponent("runs.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count == 6, let time = Double(fields[5]) else { return nil }
            return Run(kind: fields[0], widget: fields[1], request: fields[2], reason: fields[3], event: fields[4],
                       time: time)
        }
    }
}
