/// The event loop a `ProviderRunner` is driven by.
///
/// The daemon implements it on libsystemd's sd-event; `run-provider`, the tests and the benchmark use
/// `PollEventLoop`. Every handler is called on the loop's thread, never concurrently with another.
public protocol RunnerEventLoop: AnyObject {
    /// Calls `handler` whenever `fd` is readable or hung up, until the token is cancelled.
    func watchReadable(fd: Int32, _ handler: @escaping () -> Void) throws -> RunnerEventToken
    /// Calls `handler` once when the process behind `pidfd` has exited (it is not reaped by the loop).
    func watchExit(pidfd: Int32, _ handler: @escaping () -> Void) throws -> RunnerEventToken
    /// Calls `handler` once, `seconds` from now on the monotonic clock.
    func schedule(after seconds: Double, _ handler: @escaping () -> Void) throws -> RunnerEventToken
}

/// A registration with a `RunnerEventLoop`; cancelling it stops further calls of its handler.
public protocol RunnerEventToken: AnyObject {
    /// Stops the handler from being called again. Cancelling twice, or after a one-shot fired, does nothing.
    func cancel()
}
