import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerCore
import WidgetSchedulerRuntime
import WidgetSchedulerTestKit

/// A client's change is acknowledged only once committed. A commit that fails tells the replies waiting for it
/// (`StateNotWritten`, applied), makes the service degraded (status line, `Status`, one journal line however many
/// attempts), refuses further changes before making them, and ends at the first write that succeeds.
struct StateWriteFailureTests {
    struct DiskFull: Error, CustomStringConvertible {
        var description: String { "SQLite error 13: database or disk is full" }
    }

    @Test func aReplyWaitsForTheCommitThatHoldsItsChange() throws {
        let harness = try WidgetServiceHarness()
        let id = try harness.addWidget()
        harness.service.flush()
        try harness.service.remove(id: id)
        var answers: [ControlError?] = []
        harness.service.whenWritten { answers.append($0) }
        #expect(answers.isEmpty, "nothing is committed yet")
        #expect(harness.store.widgets[id] != nil)
        harness.service.flush()
        #expect(answers == [nil])
        #expect(harness.store.widgets[id] == nil)
        // With nothing left to write, a waiter is answered at once.
        harness.service.whenWritten { answers.append($0) }
        #expect(answers == [nil, nil])
    }

    @Test func aFailedCommitIsToldSaidOnceRefusesChangesAndEndsAtTheFirstWriteThatSucceeds() throws {
        let harness = try WidgetServiceHarness()
        let id = try harness.addWidget()
        harness.service.flush()
        harness.store.writeFailure = DiskFull()
        try harness.service.requireWritableState()
        try harness.service.remove(id: id)
        var answers: [ControlError?] = []
        harness.service.whenWritten { answers.append($0) }
        harness.service.flush()
        let cause = DiskFull().description
        #expect(answers == [.stateNotWritten(cause: cause, applied: true)])
        #expect(harness.service.statusLine(at: harness.clock.now()).hasPrefix("degraded, state not written ("))
        #expect(harness.service.status(version: "test").stateNotWritten?.cause == cause)
        #expect(throws: ControlError.stateNotWritten(cause: cause, applied: false)) {
            try harness.service.requireWritableState()
        }

        // The backoff's attempts fail too, and are not said again.
        var attempts = 1
        while attempts < 6, let retry = harness.service.stateWriteRetryAt {
            harness.advance(to: retry)
            harness.service.flush()
            attempts += 1
        }
        #expect(harness.service.stateWriteFailure?.attempts == attempts)
        let said = harness.journal.entries(messageID: JournalMessageID.stateNotWritten.rawValue)
        #expect(said.count == 1)
        #expect(said.first?.fields["FAILURE_REASON"] == cause)

        harness.store.writeFailure = nil
        let retry = try #require(harness.service.stateWriteRetryAt)
        harness.advance(to: retry)
        harness.service.flush()
        #expect(harness.service.stateWriteFailure == nil)
        #expect(harness.store.widgets[id] == nil, "the change kept in memory is written")
        #expect(harness.journal.entries(messageID: JournalMessageID.stateWrittenAgain.rawValue).count == 1)
        #expect(!harness.service.statusLine(at: harness.clock.now()).hasPrefix("degraded"))
        try harness.service.requireWritableState()
    }
}
