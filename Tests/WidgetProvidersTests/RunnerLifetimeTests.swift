import Foundation
import Testing
import WidgetProviders

/// A runner gives back what it holds when the last reference to it (and to its runs) goes.
@Suite("Runner lifetime")
struct RunnerLifetimeTests {
    /// The epoll descriptors this process has open (each runner's exit poller is one).
    static func epollDescriptors() -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let targets = entries.map { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") }
        return targets.filter { $0 == "anon_inode:[eventpoll]" }.count
    }

    @Test func runnersThatAreDroppedCloseTheirExitPollers() {
        let before = Self.epollDescriptors()
        for _ in 0..<100 {
            let loop = PollEventLoop()
            var result: ProcessResult?
            let runner = ProviderRunner(loop: loop)
            _ = runner.start(ProcessSpec(argv: ["true"])) { result = $0 }
            loop.run { result != nil }
            #expect(result?.failure == nil)
        }
        // Other suites running at the same time open a few of their own; a leak would be one per runner.
        #expect(Self.epollDescriptors() - before < 50)
    }
}
