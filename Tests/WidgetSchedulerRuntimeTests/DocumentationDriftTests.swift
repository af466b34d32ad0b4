import Foundation
import Testing
import WidgetSchedulerCore
@testable import WidgetSchedulerRuntime

private let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The docs' tables against the code: a setting, a RELOAD_REASON, a BECAUSE, a journal field or a MESSAGE_ID that
/// exists on one side only fails here, whichever side it is.
struct DocumentationDriftTests {
    static func document(_ path: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// The backquoted words of the first column of every table row in `text` whose header's first cell is
    /// `header`, up to the table's end.
    static func firstColumn(of text: String, header: String) -> [String] {
        var words: [String] = []
        var inTable = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("|") else {
                inTable = false
                continue
            }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count > 2 else { continue }
            if cells[1] == header {
                inTable = true
                continue
            }
            if inTable { words += backquoted(cells[1]) }
        }
        return words
    }

    /// The `…` spans of `text`.
    static func backquoted(_ text: some StringProtocol) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// The cell of column `column` in the table row whose first cell is `` `name` ``.
    static func row(_ name: String, column: Int, in text: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix("| `\(name)` |") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
            return cells.count > column + 1 ? String(cells[column + 1]) : nil
        }
        return nil
    }

    @Test func everySettingIsInTheSchedulingDocsAndNoOther() throws {
        let doc = try Self.document("docs/scheduling.md")
        // The table lists the scheduling settings; the paragraph below it the two read only at start.
        var documented = Set(Self.firstColumn(of: doc, header: "setting (config key)"))
        let paragraph = doc.components(separatedBy: "## Why a run happens").first ?? ""
        for key in DaemonConfiguration.knownKeys where key.hasPrefix("provider-") {
            if paragraph.contains("`\(key)`") { documented.insert(key) }
        }
        #expect(documented == Set(DaemonConfiguration.knownKeys))
    }

    @Test func theReloadReasonsInTheJournalDocsAreTheRunReasons() throws {
        let doc = try Self.document("docs/journal.md")
        let cell = try #require(Self.row("RELOAD_REASON", column: 2, in: doc))
        #expect(Set(Self.backquoted(cell)) == Set(RunReason.allCases.map(\.rawValue)))
        let scheduling = try Self.document("docs/scheduling.md")
        #expect(Set(Self.firstColumn(of: scheduling, header: "reason")) == Set(RunReason.allCases.map(\.rawValue)))
    }

    @Test func theBecauseValuesInTheJournalDocsAreTheDeferralReasons() throws {
        let doc = try Self.document("docs/journal.md")
        let cell = try #require(Self.row("BECAUSE", column: 2, in: doc))
        #expect(Set(Self.backquoted(cell)) == Set(DeferralReason.allCases.map(\.rawValue)))
    }

    @Test func everyMessageIDIsDocumentedAndCataloguedAndNoOther() throws {
        let ids = Set(JournalMessageID.allCases.map(\.rawValue))
        let doc = try Self.document("docs/journal.md")
        let table = doc.components(separatedBy: "## MESSAGE_IDs").dropFirst().first ?? ""
        let documented = Set(Self.messageIDs(in: table.components(separatedBy: "\n¹").first ?? table))
        #expect(documented == ids)
        let catalog = try Self.document("units/widget-scheduler.catalog")
        let catalogued = Set(catalog.split(separator: "\n").filter { $0.hasPrefix("-- ") }.map {
            String($0.dropFirst(3)).trimmingCharacters(in: .whitespaces)
        })
        #expect(catalogued == ids)
    }

    @Test func everyJournalFieldIsInTheFieldsTable() throws {
        let doc = try Self.document("docs/journal.md")
        let documented = Set(Self.firstColumn(of: doc, header: "field"))
        let fields: Set<String> = [
            JournalField.messageID, JournalField.widgetID, JournalField.widgetKind, JournalField.reloadReason,
            JournalField.decision, JournalField.because, JournalField.nextReload, JournalField.policy,
            JournalField.tokens, JournalField.providerPID, JournalField.exitStatus, JournalField.failureReason,
            JournalField.durationUsec, JournalField.widgetCount, JournalField.runsFolded, JournalField.limits,
        ]
        #expect(documented == fields)
    }

    /// 32-hex-digit ids in backquotes.
    static func messageIDs(in text: String) -> [String] {
        backquoted(text).filter { $0.count == 32 && $0.allSatisfy(\.isHexDigit) }
    }
}
