import Foundation
import SystemdKit
import Testing
import WidgetProviders
@testable import WidgetSchedulerRuntime

/// The provider runner on the daemon's own loop (sd-event through `EventLoopRunnerAdapter`).
struct EventLoopRunnerAdapterTests {
    /// Runs `spec` on a fresh sd-event loop until it completes or `timeout` seconds pass.
    private func run(_ spec: ProcessSpec, timeout: Double = 5) throws -> ProcessResult? {
        let loop = try EventLoop()
        let runner = ProviderRunner(loop: EventLoopRunnerAdapter(loop: loop))
        var result: ProcessResult?
        runner.start(spec) { result = $0 }
        let deadline = Date().addingTimeInterval(timeout)
        while result == nil && Date() < deadline {
            _ = try loop.runOnce(timeout: 100_000)
        }
        return result
    }

    @Test func aRunThatCannotStartStillCompletes() throws {
        let result = try #require(try run(ProcessSpec(argv: ["/nonexistent/widget-provider"])),
                                  "the completion of a failed spawn was lost")
        #expect(result.failure?.reason == .spawn, "\(result)")
    }

    @Test func aRunCompletesWithItsOutput() throws {
        let result = try #require(try run(ProcessSpec(argv: ["/bin/echo", "hello"])))
        #expect(String(decoding: result.stdout, as: UTF8.self) == "hello\n")
    }
}
