import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerCore

/// One value that must survive encoding to Varlink parameters and decoding back.
struct ControlRoundTrip: Sendable, CustomTestStringConvertible {
    let name: String
    let check: @Sendable () throws -> Bool

    init<Value: Codable & Equatable & Sendable>(_ name: String, _ value: Value) {
        self.name = name
        self.check = {
            let parameters = VarlinkCoding.parameters(value)
            let decoded = try VarlinkCoding.decode(Value.self, from: parameters)
            return decoded == value
        }
    }

    var testDescription: String { name }
}

private let date = Date(timeIntervalSince1970: 1_795_000_000)
private let later = Date(timeIntervalSince1970: 1_795_000_300.25)

private let roundTrips: [ControlRoundTrip] = [
    ControlRoundTrip("Reload by kind", ReloadMethod.Parameters(kind: "weather", foreground: true)),
    ControlRoundTrip("Reload all", ReloadMethod.Parameters(all: true)),
    ControlRoundTrip("Reload widgets", ReloadMethod.Parameters(widgets: ["w1", "w2"])),
    ControlRoundTrip("Reload reply", ReloadMethod.Reply(decisions: [
        ReloadDecision(widget: "w1", decision: .ran, at: date),
        ReloadDecision(widget: "w2", decision: .coalesced, at: date),
        ReloadDecision(widget: "w3", decision: .deferred, at: later, because: .floor),
    ])),
    ControlRoundTrip("List reply", ListMethod.Reply(widgets: [
        WidgetSummary(
            id: "w1", kind: "weather", family: "small", configuration: ["city": .string("Oslo"), "days": .integer(3)],
            state: "idle", lastReload: date, lastReason: "initial", lastOutcome: "success", nextReload: later,
            nextReason: "policy", tokens: 11.5,
            currentEntry: .init(date: date, content: .object(["temp": .number(3.5)]))),
        WidgetSummary(id: "w2", kind: "clock", family: "medium", configuration: [:], state: "pending", tokens: 12),
    ])),
    ControlRoundTrip("Status reply", StatusMethod.Reply(
        version: "1.0", pid: 42, startedAt: date, status: "2 widgets", widgets: 2, kinds: 1, running: 0, pending: 1,
        quarantined: 0, nextReload: .init(widget: "w1", kind: "weather", at: later, reason: "policy"),
        settings: .init(
            minimumInterval: 300, dailyBudget: 72, burstBudget: 12, maxConcurrentRuns: 2, coalesceWindow: 1,
            developerKinds: ["weather"]),
        stateDirectory: "/var/lib/widget-scheduler", socket: "/run/widget-scheduler/control.socket")),
    ControlRoundTrip("Kinds reply", KindsMethod.Reply(kinds: [
        .init(
            kind: "weather", displayName: "Weather", description: "Forecast", families: ["small", "medium"],
            parameters: [
                .init(name: "city", type: "string", title: "City", defaultValue: .string("Oslo"), dynamicOptions: true),
            ],
            group: "group.weather", ownerUsers: ["alice"], ownerGroups: ["staff"], developerMode: true, widgets: 3,
            manifest: "/usr/share/widget-scheduler/providers/weather.toml"),
    ])),
    ControlRoundTrip(
        "Add", AddMethod.Parameters(kind: "weather", family: "small", parameters: ["city": .string("Rome")])),
    ControlRoundTrip("Add reply", AddMethod.Reply(id: "w7")),
    ControlRoundTrip("Remove", RemoveMethod.Parameters(id: "w7")),
    ControlRoundTrip("Remove reply", NoParameters()),
    ControlRoundTrip("Configure", ConfigureMethod.Parameters(id: "w1", parameters: ["days": .integer(5)])),
    ControlRoundTrip("Configure reply", ConfigureMethod.Reply(
        decision: ReloadDecision(widget: "w1", decision: .ran, at: date))),
    ControlRoundTrip("Options", OptionsMethod.Parameters(kind: "weather", parameter: "city", search: "Os")),
    ControlRoundTrip("Options reply", OptionsMethod.Reply(
        options: [.init(value: .string("Oslo"), title: "Oslo, Norway"), .init(value: .integer(2))], source: .provider)),
    ControlRoundTrip("Timeline", TimelineMethod.Parameters(id: "w1")),
    ControlRoundTrip("Timeline reply", TimelineMethod.Reply(
        widget: "w1", kind: "weather", family: "systemSmall", policy: .init(policy: "after", date: later),
        entries: [
            .init(date: date, relevance: .init(score: 2, duration: 60), content: .string("a"), current: true),
            .init(date: later, content: .null, current: false),
        ],
        nextReload: later, nextReason: "policy")),
    ControlRoundTrip("Views", ViewsMethod.Parameters(kind: "weather")),
    ControlRoundTrip("Views reply", ViewsMethod.Reply(views: [
        .init(kind: "weather", views: .object(["version": .integer(1), "families": .object([:])]),
              assets: "/usr/lib/widget-providers/weather/assets"),
        .init(kind: "clock", views: .object(["version": .integer(1)])),
    ])),
    ControlRoundTrip("Budget", BudgetMethod.Parameters(kind: "weather")),
    ControlRoundTrip("Budget reply", BudgetMethod.Reply(ledgers: [
        .init(
            widget: "w1", kind: "weather", tokens: 3.25, capacity: 12, nextTokenAt: later, minimumInterval: 300,
            floorLiftsAt: later, developerMode: false, budgetedRuns24h: 9, exemptRuns24h: 1,
            runs: [.init(at: date, reason: "policy", outcome: "success", budgeted: true)], consecutiveFailures: 2,
            backoffUntil: later, quarantined: false),
    ])),
    ControlRoundTrip("Watch", WatchMethod.Parameters(id: "w1")),
    ControlRoundTrip("Watch entryChanged", WatchEvent.entryChanged(
        widget: "w1", kind: "weather", date: later, content: .object(["t": .integer(1)]))),
    ControlRoundTrip("Watch runFinished", WatchEvent.runFinished(
        widget: "w1", kind: "weather", date: date, reason: "policy", outcome: "timeout", detail: "killed after 10 s")),
    ControlRoundTrip("Watch decision", WatchEvent.decided(
        kind: "weather", date: date, decision: ReloadDecision(widget: "w1", decision: .deferred, at: later,
                                                              because: .budget))),
    ControlRoundTrip("Stack", StackMethod.Parameters(ids: ["w1", "w2"])),
    ControlRoundTrip("Stack reply", StackMethod.Reply(stack: [
        .init(widget: "w1", kind: "weather", score: 5, normalized: 1, relevant: true, until: later,
              explanation: "score 5"),
        .init(widget: "w2", kind: "clock", score: nil, normalized: nil, relevant: false, until: nil,
              explanation: "no relevance holds now"),
    ])),
    ControlRoundTrip("DataSet", DataSetMethod.Parameters(group: "g", key: "k", value: "v", reloadKind: "weather")),
    ControlRoundTrip("DataSet reply", DataSetMethod.Reply(
        updatedAt: later, decisions: [ReloadDecision(widget: "w1", decision: .ran, at: later)])),
    ControlRoundTrip("DataGet", DataGetMethod.Parameters(group: "g", key: "k")),
    ControlRoundTrip("DataGet reply", DataItem(key: "k", value: "v", updatedAt: later)),
    ControlRoundTrip("DataList", DataListMethod.Parameters(group: "g")),
    ControlRoundTrip("DataList reply", DataListMethod.Reply(items: [DataItem(key: "k", value: "v", updatedAt: date)])),
    ControlRoundTrip("DataDelete", DataDeleteMethod.Parameters(group: "g", key: "k")),
    ControlRoundTrip("GetInfo reply", VarlinkServiceInfo(
        vendor: "v", product: "p", version: "1", url: "u", interfaces: [ControlInterface.name])),
    ControlRoundTrip("Request", VarlinkRequest(
        method: ReloadMethod.method.qualifiedName, parameters: ["all": .bool(true)], more: false, oneway: true)),
    ControlRoundTrip("Reply", VarlinkReply(parameters: ["id": .string("w1")], continues: true)),
    ControlRoundTrip("Error reply", VarlinkReply(error: .unknownKind("weather"))),
]

@Suite struct ControlCodecTests {
    @Test(arguments: roundTrips)
    func everyMessageSurvivesARoundTrip(_ sample: ControlRoundTrip) throws {
        #expect(try sample.check())
    }

    @Test func listItemWritesEveryKeyWithNullsForAbsentValues() throws {
        let item = WidgetSummary(
            id: "w2", kind: "clock", family: "small", configuration: [:], state: "idle", tokens: 12)
        let text = String(decoding: try VarlinkCoding.encode(item), as: UTF8.self)
        #expect(text == #"{"configuration":{},"currentEntry":null,"family":"small","id":"w2","kind":"clock","#
            + #""lastOutcome":null,"lastReason":null,"lastReload":null,"nextReason":null,"nextReload":null,"#
            + #""state":"idle","tokens":12}"#)
    }

    @Test func decisionIsWidgetDecisionAtBecause() throws {
        let decision = ReloadDecision(
            widget: "w3", decision: .deferred, at: Date(timeIntervalSince1970: 1_795_000_000), because: .floor)
        let text = String(decoding: try VarlinkCoding.encode(decision), as: UTF8.self)
        #expect(text == #"{"at":"2026-11-18T11:06:40Z","because":"floor","decision":"deferred","widget":"w3"}"#)
        let ran = ReloadDecision(widget: "w1", decision: .ran, at: Date(timeIntervalSince1970: 1_795_000_000))
        #expect(String(decoding: try VarlinkCoding.encode(ran), as: UTF8.self).contains(#""because":null"#))
    }

    @Test func coreDecisionBecomesAWallClockDate() {
        let now = Instant(monotonic: 1000, wall: Date(timeIntervalSince1970: 1_795_000_000))
        let decision = ReloadDecision(widget: "w3", decision: .deferred(at: 1120, because: .budget), now: now)
        #expect(decision.decision == .deferred)
        #expect(decision.at == Date(timeIntervalSince1970: 1_795_000_120))
        #expect(decision.because == .budget)
    }

    @Test(arguments: [
        (#"{"kind": 3}"#, "kind", "must be a string"),
        (#"{"all": "yes"}"#, "all", "must be a boolean"),
        (#"{"widgets": ["w1", 2]}"#, "widgets[1]", "must be a string"),
        (#"{"widgets": "w1"}"#, "widgets", "must be an array"),
    ])
    func wrongTypesNameTheParameter(json: String, parameter: String, reason: String) throws {
        let parameters = try #require(JSONValue(jsonText: json)?.objectValue)
        #expect(throws: ControlError.invalidParameter(parameter, reason: reason)) {
            try VarlinkCoding.decode(ReloadMethod.Parameters.self, from: parameters)
        }
    }

    @Test func missingParameterIsNamed() {
        #expect(throws: ControlError.invalidParameter("kind", reason: "is required")) {
            try VarlinkCoding.decode(AddMethod.Parameters.self, from: ["family": .string("small")])
        }
        #expect(throws: ControlError.invalidParameter("id", reason: "is required")) {
            try VarlinkCoding.decode(RemoveMethod.Parameters.self, from: nil)
        }
    }

    @Test func nonRFC3339DateIsRejectedNamingTheField() throws {
        let parameters: [String: JSONValue] = ["key": .string("k"), "value": .string("v"), "updatedAt": .string("noon")]
        do {
            _ = try VarlinkCoding.decode(DataItem.self, from: parameters)
            Issue.record("decoded a bad date")
        } catch {
            #expect(error.parameters["parameter"] == .string("updatedAt"))
        }
    }

    @Test(arguments: [
        (ReloadMethod.Parameters(kind: "weather"), ReloadMethod.Parameters.Target.kind("weather")),
        (ReloadMethod.Parameters(all: true), .all),
        (ReloadMethod.Parameters(widgets: ["w1"]), .widgets(["w1"])),
    ])
    func reloadNamesOneTarget(parameters: ReloadMethod.Parameters, target: ReloadMethod.Parameters.Target) throws {
        #expect(try parameters.target() == target)
    }

    @Test(arguments: [
        ReloadMethod.Parameters(),
        ReloadMethod.Parameters(all: false),
        ReloadMethod.Parameters(kind: "weather", all: true),
        ReloadMethod.Parameters(kind: "weather", widgets: ["w1"]),
        ReloadMethod.Parameters(widgets: []),
    ])
    func reloadWithoutExactlyOneTargetIsInvalid(parameters: ReloadMethod.Parameters) {
        #expect(throws: ControlError.self) { try parameters.target() }
    }

    @Test(arguments: [
        (1_795_000_000.0, "2026-11-18T11:06:40Z"),
        (1_795_000_000.25, "2026-11-18T11:06:40.250Z"),
        (1_795_000_000.9999, "2026-11-18T11:06:41Z"),
    ])
    func datesAreRFC3339InUTC(seconds: Double, text: String) {
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: seconds)) == text)
    }

    @Test(arguments: [
        ("2026-11-18T11:06:40Z", 1_795_000_000.0),
        ("2026-11-18T11:06:40.250Z", 1_795_000_000.25),
        ("2026-11-18T13:06:40+02:00", 1_795_000_000.0),
    ])
    func rfc3339ParsesUTCFractionsAndOffsets(text: String, seconds: Double) throws {
        let parsed = try #require(RFC3339.date(from: text))
        #expect(abs(parsed.timeIntervalSince1970 - seconds) < 0.0005)
    }

    @Test(arguments: ["", "yesterday", "2026-13-01T00:00:00Z", "1795000000"])
    func rfc3339RejectsOtherText(text: String) {
        #expect(RFC3339.date(from: text) == nil)
    }

    @Test func methodNamesAreQualifiedAndResolveBack() {
        for method in ControlMethod.allCases {
            #expect(method.qualifiedName == "io.widgetscheduler.Scheduler." + method.rawValue)
            #expect(ControlMethod(qualifiedName: method.qualifiedName) == method)
        }
        #expect(ControlMethod(qualifiedName: "org.varlink.service.GetInfo") == nil)
    }

    @Test func requestSplitsInterfaceAndMember() {
        let request = VarlinkRequest(method: "org.varlink.service.GetInfo")
        #expect(request.interface == "org.varlink.service")
        #expect(request.member == "GetInfo")
        #expect(!request.wantsMore && !request.isOneway)
    }

    @Test(arguments: [
        (ControlError.unknownKind("weather"), #"unknown kind "weather""#),
        (.unknownWidget("w9"), #"unknown widget "w9""#),
        (.unknownKey(group: "g", key: "k"), #"no value for key "k" in group "g""#),
        (.permissionDenied(method: "Reload", reason: "uid 1000 is not allowed"),
         "permission denied: uid 1000 is not allowed"),
        (.invalidParameter("city", reason: "must be a string"), #"invalid parameter "city": must be a string"#),
        (.providerFailed(kind: "weather", reason: "timeout", detail: "no answer in 10 s"),
         #"provider of kind "weather" failed (timeout): no answer in 10 s"#),
        (.invalidMessage("not valid JSON"), "invalid message: not valid JSON"),
        (.tooManyConnections(limit: 4096), "refused: the daemon already serves 4096 connections (max-connections)"),
        (.stateNotWritten(cause: "disk full", applied: false),
         "not done: the daemon cannot write its state (disk full); nothing was changed"),
        (.stateNotWritten(cause: "disk full", applied: true),
         "not saved: the daemon cannot write its state (disk full); the change is in effect until the daemon stops, "
            + "and is saved if it can write again before then"),
        (.methodNotFound("io.widgetscheduler.Scheduler.Nope"), "method not found: io.widgetscheduler.Scheduler.Nope"),
        (.noSuchImage(widget: "w1", sha256: "ab12"), #"no image ab12 in widget "w1""#),
        (.noSuchImage(kind: "photo", sha256: "ab12"), #"no image ab12 in the previews of kind "photo""#),
        (.interfaceNotFound("com.example"), "interface not found: com.example"),
        (.expectedMore(), "the method streams replies and must be called with more"),
        (ControlError(name: "com.example.Odd", parameters: ["x": .integer(1)]), #"com.example.Odd {"x":1}"#),
    ])
    func everyErrorReadsAsOneLine(error: ControlError, message: String) {
        #expect(error.message == message)
        #expect(!error.message.contains("\n"))
    }

    @Test func errorSurvivesAReplyRoundTrip() {
        let reply = VarlinkReply(error: .unknownWidget("w9"))
        #expect(reply.controlError == .unknownWidget("w9"))
        #expect(VarlinkReply(parameters: [:]).controlError == nil)
    }
}

@Suite struct ControlMessageParsingTests {
    @Test func wellFormedCallParses() throws {
        let message = Array(#"{"method":"io.widgetscheduler.Scheduler.List","parameters":{},"more":false}"#.utf8)
        let request = try VarlinkRequest.parse(message).get()
        #expect(request == VarlinkRequest(method: "io.widgetscheduler.Scheduler.List", parameters: [:], more: false))
    }

    @Test(arguments: [
        "", "{", "null", "\"x\"", #"{"method":null}"#, #"{"method":true}"#, #"{"method":"a","oneway":1}"#,
        String(repeating: "[", count: 100_000), String(repeating: "{\"a\":", count: 50_000),
        "{\"method\":\"a\",\"parameters\":" + String(repeating: "[", count: 10_000) + "}",
    ])
    func malformedMessagesAreInvalidMessagesNeverTraps(text: String) {
        switch VarlinkRequest.parse(Array(text.utf8)) {
        case .success(let request): Issue.record("parsed \(request)")
        case .failure(let error): #expect(error.name == ControlError.Name.invalidMessage)
        }
    }

    @Test func randomBytesNeverParseAsACallOrTrap() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 0...64, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            if case .success(let request) = VarlinkRequest.parse(bytes) {
                Issue.record("random bytes parsed as \(request)")
            }
        }
    }
}
