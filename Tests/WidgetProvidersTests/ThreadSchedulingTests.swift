import Foundation
import Testing
import WidgetProviders

#if canImport(Glibc)
import Glibc
#endif

/// The event loop and the spawning thread ask for a short scheduling slice, and leave a thread under another policy
/// as it is. Each case runs on a thread of its own: the request also sets `SCHED_RESET_ON_FORK`, which would reach
/// the threads the test process starts later.
struct ThreadSchedulingTests {
    /// Runs `body` on a new thread and returns what it returned.
    private static func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let box = ResultBox<T>()
        let thread = Thread { box.set(body()) }
        thread.start()
        return box.wait()
    }

    @Test func aThreadAskingForTheLatencySliceGetsItAndKeepsItsPolicyAndNice() throws {
        let (before, request, after) = Self.onOwnThread {
            (ThreadScheduling.current(), ThreadScheduling.requestLatencySlice(), ThreadScheduling.current())
        }
        let was = try #require(before)
        let now = try #require(after)
        try #require(was.policy == SCHED_OTHER, "the test process runs under \(was.policy)")
        // A kernel before 6.12 reports no slice, and grants none.
        let granted = was.sliceNanoseconds == nil ? nil : ThreadScheduling.latencySliceNanoseconds
        #expect(request == .applied(grantedSlice: granted))
        #expect(now.sliceNanoseconds == granted)
        #expect(now.resetsOnFork, "what the thread starts must not inherit its slice")
        #expect(now.policy == was.policy)
        #expect(now.nice == was.nice)
    }

    @Test func aThreadUnderAnotherPolicyIsLeftAsItIs() throws {
        let (before, request, after) = Self.onOwnThread { () -> (ThreadScheduling?, ThreadScheduling.SliceRequest?,
                                                                ThreadScheduling?) in
            var parameters = sched_param(sched_priority: 0)
            // SCHED_IDLE (5), which any thread may move to.
            guard sched_setscheduler(0, 5, &parameters) == 0 else { return (nil, nil, nil) }
            return (ThreadScheduling.current(), ThreadScheduling.requestLatencySlice(), ThreadScheduling.current())
        }
        let was = try #require(before, "cannot move a thread to SCHED_IDLE")
        #expect(request == .otherPolicy("SCHED_IDLE"))
        #expect(after == was)
        #expect(!was.resetsOnFork)
    }

    @Test(arguments: [(Int32(0), "SCHED_OTHER"), (1, "SCHED_FIFO"), (2, "SCHED_RR"), (3, "SCHED_BATCH"),
                      (5, "SCHED_IDLE"), (6, "SCHED_DEADLINE"), (9, "policy 9")])
    func policiesAreNamedAsTheKernelNamesThem(policy: Int32, name: String) {
        #expect(ThreadScheduling.policyName(policy) == name)
    }
}

/// One value handed from a thread to the test that waits for it.
private final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: T?

    func set(_ newValue: T) {
        condition.lock()
        value = newValue
        condition.signal()
        condition.unlock()
    }

    func wait() -> T {
        condition.lock()
        defer { condition.unlock() }
        while value == nil { condition.wait() }
        return value!
    }
}
