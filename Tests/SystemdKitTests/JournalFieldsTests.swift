import Logging
import Testing

@testable import SystemdKit

@Suite("Journal field encoding")
struct JournalFieldsTests {
    @Test(arguments: [
        ("widget_kind", "WIDGET_KIND"),
        ("WIDGET_ID", "WIDGET_ID"),
        ("provider.pid", "PROVIDER_PID"),
        ("next-reload", "NEXT_RELOAD"),
        ("_trusted", "TRUSTED"),
        ("__uid", "UID"),
        ("3d", "META_3D"),
        ("message", "META_MESSAGE"),
        ("PRIORITY", "META_PRIORITY"),
        ("code_line", "META_CODE_LINE"),
        ("MESSAGE_ID", "MESSAGE_ID"),
        ("café", "CAF_"),
        ("with space", "WITH_SPACE"),
        (String(repeating: "a", count: 80), String(repeating: "A", count: 64)),
        (String(repeating: "B", count: 65), String(repeating: "B", count: 64)),
        (String(repeating: "C", count: 64), String(repeating: "C", count: 64)),
        ("MESSAGE", "META_MESSAGE"),
        ("X9_Y", "X9_Y"),
        ("Xé", "X_"),
    ])
    func metadataKeysBecomeValidFieldNames(key: String, expected: String) {
        #expect(JournalFields.fieldName(forMetadataKey: key) == expected)
    }

    @Test(arguments: ["", "_", "___"])
    func keysWithNothingUsableAreDropped(key: String) {
        #expect(JournalFields.fieldName(forMetadataKey: key) == nil)
    }

    @Test(arguments: [
        (Logger.Level.trace, 7), (.debug, 7), (.info, 6), (.notice, 5), (.warning, 4), (.error, 3), (.critical, 2),
    ])
    func levelsMapToSyslogPriorities(level: Logger.Level, priority: Int) {
        #expect(JournalFields.priority(of: level) == priority)
    }

    @Test func entryListsFixedFieldsThenSortedMetadata() {
        let fields = JournalFields.entry(
            message: "run finished", level: .notice, identifier: "widget-scheduler",
            metadata: ["widget_kind": "weather", "MESSAGE_ID": "0123", "tokens": .stringConvertible(3),
                       "message": "shadow"],
            file: "Runtime/Run.swift", line: 42, function: "finish()")
        #expect(fields.map { "\($0.name)=\($0.value)" } == [
            "MESSAGE=run finished", "PRIORITY=5", "SYSLOG_IDENTIFIER=widget-scheduler",
            "CODE_FILE=Runtime/Run.swift", "CODE_LINE=42", "CODE_FUNC=finish()",
            "MESSAGE_ID=0123", "META_MESSAGE=shadow", "TOKENS=3", "WIDGET_KIND=weather",
        ])
    }

    @Test func metadataWhoseKeysAreFieldNamesComesOutSortedByName() {
        // The daemon's own lines: every key a field name already, in whatever order the dictionary holds them.
        let names = ["WIDGET_KIND", "PROVIDER_PID", "MESSAGE_ID", "TOKENS", "A", "WIDGET_ID", "DURATION_USEC",
                     "REASON", "EXIT_STATUS", "POLICY", "Z9", "B_"]
        var metadata: Logger.Metadata = [:]
        for (index, name) in names.enumerated() {
            metadata[name] = index % 2 == 0 ? .string("v\(index)") : .stringConvertible(index)
        }
        let fields = JournalFields.metadataFields(metadata)
        #expect(fields.map(\.name) == names.sorted())
        #expect(fields.map(\.value) == names.sorted().map { name in
            let index = names.firstIndex(of: name)!
            return index % 2 == 0 ? "v\(index)" : "\(index)"
        })
        // A reserved name among them is renamed, and sorted by its new name.
        metadata["MESSAGE"] = "shadow"
        #expect(JournalFields.metadataFields(metadata).map(\.name) == (names + ["META_MESSAGE"]).sorted())
    }

    @Test func keysThatMapToOneFieldNameKeepTheValueOfTheKeySortingLast() {
        let metadata: Logger.Metadata = ["widget-kind": "a", "WIDGET_KIND": "b", "widget_kind": "c", "zeta": "z",
                                         "Widget.Kind": "d", "alpha": "x"]
        // Sorted keys: "WIDGET_KIND" < "Widget.Kind" < "widget-kind" < "widget_kind".
        #expect(JournalFields.metadataFields(metadata).map { "\($0.name)=\($0.value)" }
                == ["ALPHA=x", "WIDGET_KIND=c", "ZETA=z"])
        let line = StderrLogHandler.line(level: .info, message: "m", metadata: metadata)
        #expect(line == "INFO m ALPHA=x WIDGET_KIND=c ZETA=z")
    }

    @Test(arguments: [
        ("plain", "plain"),
        ("", #""""#),
        ("two words", #""two words""#),
        ("a\tb\nc\rd", #""a\tb\nc\rd""#),
        (#"back\slash"#, #""back\\slash""#),
        ("bell\u{07}", #""bell\x7""#),
        ("del\u{7f}", #""del\x7f""#),
        ("unit\u{1f}sep", #""unit\x1fsep""#),
        ("é ü", #""é ü""#),
        ("naïve", "naïve"),
    ])
    func stderrValuesAreQuotedWithCStyleEscapesOnlyWhenNeeded(value: String, expected: String) {
        #expect(StderrLogHandler.quoted(value) == expected)
        #expect(StderrLogHandler.line(level: .info, message: "m", metadata: ["K": .string(value)])
                == "INFO m K=\(expected)")
    }

    @Test func laterMetadataSourcesWin() {
        let merged = JournalFields.merge(
            handler: ["a": "handler", "b": "handler"], provider: nil, event: ["b": "event"], error: nil)
        #expect(merged == ["a": "handler", "b": "event"])
    }

    @Test func stderrLineUsesJournalNamesAndQuotesWhenNeeded() {
        let line = StderrLogHandler.line(
            level: .warning, message: "provider failed\nbadly",
            metadata: ["widget_id": "w3", "failure_reason": "exit status 2", "quote": "say \"hi\""])
        let expected = #"WARNING provider failed badly FAILURE_REASON="exit status 2" QUOTE="say \"hi\"" WIDGET_ID=w3"#
        #expect(line == expected)
    }

    @Test(arguments: [
        ([String: String](), true, false, LoggingBootstrap.Target.journal),
        ([:], false, false, .stderr),
        ([:], true, true, .stderr),
        (["LOG_TARGET": "stderr"], true, false, .stderr),
        (["LOG_TARGET": "journal"], false, true, .journal),
        (["LOG_TARGET": "bogus"], true, false, .journal),
    ])
    func automaticTargetPrefersTheJournalForDaemons(
        environment: [String: String], socketExists: Bool, terminal: Bool, expected: LoggingBootstrap.Target
    ) {
        let target = LoggingBootstrap.automaticTarget(
            environment: environment, journalSocketExists: socketExists, stderrIsTerminal: terminal)
        #expect(target == expected)
    }
}
