import Foundation
import Glibc
import Testing
import WidgetProtocol
import WidgetSchedulerRuntime
import WidgetSchedulerTestKit

/// Issue 29 §5: an emptied `state.sqlite` started the daemon with 0 widgets and only a warning. Now a start that the
/// files beside the database show to have lost widgets is refused, naming the file, unless `--accept-state-loss`.
@Suite("state loss")
struct StateLossTests {
    @Test func anEmptiedDatabaseAfterACleanStopIsRefusedUntilTheLossIsAccepted() throws {
        let world = try DaemonWorld(config: "")
        try world.addKind("note", script: CleanStopTests.provider)
        try world.start()
        let ids = try (0..<3).map { _ in try world.connect().add("note") }
        world.signal(SIGTERM)
        _ = try eventually("the daemon's exit") { () -> Bool? in world.isRunning ? nil : true }

        let database = world.stateDirectory.appendingPathComponent(StateStore.fileName).path
        #expect(truncate(database, 0) == 0)
        for suffix in ["-wal", "-shm"] { unlink(database + suffix) }
        let invocation = try world.daemonInvocation()
        let refused = try ChildProcess.run(invocation.arguments, environment: invocation.environment)
        #expect(refused.status == 1, "\(refused.output)")
        #expect(refused.output.contains("\(database) has lost state"), "\(refused.output)")
        #expect(refused.output.contains("says it held 3"), "\(refused.output)")
        #expect(refused.output.contains("--accept-state-loss"), "\(refused.output)")
        // Refused again: nothing the refused start did hides the evidence.
        let again = try ChildProcess.run(invocation.arguments, environment: invocation.environment)
        #expect(again.status == 1, "\(again.output)")

        try world.start(extraArguments: ["--accept-state-loss"])
        defer { world.stopDaemon() }
        #expect(try world.connect().list().isEmpty)
        #expect(world.daemonLog.contains("going on without it (--accept-state-loss)"),
                "\(world.daemonLog.suffix(2000))")
        print("R9: state loss: an emptied state.sqlite after a clean stop with \(ids.count) widgets refused twice "
              + "(exit \(refused.status)), started with --accept-state-loss")
    }

    @Test func aStopThatLeavesEveryWidgetStartsAgainWithoutComplaint() throws {
        let world = try DaemonWorld(config: "")
        try world.addKind("note", script: CleanStopTests.provider)
        try world.start()
        let ids = try (0..<3).map { _ in try world.connect().add("note") }
        _ = try world.connect().call(.remove, ["id": .string(ids[0])])
        world.signal(SIGTERM)
        _ = try eventually("the daemon's exit") { () -> Bool? in world.isRunning ? nil : true }
        try world.start()
        defer { world.stopDaemon() }
        #expect(try world.connect().list().map(\.id).sorted() == Array(ids.dropFirst()))
    }
}
