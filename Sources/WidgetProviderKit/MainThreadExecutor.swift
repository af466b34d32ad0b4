import Foundation

/// Runs a provider's async code on the main thread, one job at a time, instead of on libdispatch's thread pool.
///
/// A provider answers one request and exits, so a pool buys it nothing, and it costs a journal line: Swift's async
/// `main` ends in `dispatch_main()`, after which the main queue is served by a pool thread that libdispatch renices
/// to the queue's QoS (nice −4, user-initiated). A provider may not lower its nice value (the sandbox and any
/// unprivileged user), so libdispatch logs "Failed to set thread priority for worker thread: … errno=13" on every
/// run. Here the work is a task whose jobs, and the main actor's, go to the main queue, which the main thread serves
/// through its run loop: no pool thread starts, and nothing asks for a priority.
final class MainThreadExecutor: TaskExecutor, @unchecked Sendable {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        DispatchQueue.main.async { job.runSynchronously(on: executor) }
    }

    /// What `operation` returns, run as a task on the main thread; call it from the main thread.
    ///
    /// The task runs at the default priority: work the provider itself hands to libdispatch (a timer, a queue it
    /// makes) then asks for no nice value other than the one the process has.
    static func run<Result: Sendable>(_ operation: @escaping @Sendable () async -> Result) -> Result {
        let outcome = Outcome<Result>()
        Task(executorPreference: MainThreadExecutor(), priority: .medium) { outcome.set(await operation()) }
        while true {
            if let result = outcome.value { return result }
            // Returns after each main-queue job, so the outcome is checked as soon as the task has one.
            _ = RunLoop.main.run(mode: .default, before: .distantFuture)
        }
    }

    /// The task's result, set once.
    private final class Outcome<Value: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Value?

        var value: Value? { lock.withLock { stored } }

        func set(_ value: Value) { lock.withLock { stored = value } }
    }
}
