import CSystemd
import Glibc

/// A synchronous event loop over libsystemd's sd-event: timers, file descriptors, child processes (pidfd), signals,
/// wall-clock changes and the service watchdog, all dispatched on the thread that calls `run()`.
///
/// Every `add…` method returns an `EventSource` that the caller must keep: dropping it cancels the source.
/// Child and signal sources need their signals blocked first; call `EventLoop.blockSignals(_:)` at process start,
/// before any thread is created, so every thread inherits the mask.
public final class EventLoop {
    let handle: OpaquePointer

    /// Creates a new, private sd-event loop.
    public init() throws {
        var event: OpaquePointer?
        try check(sd_event_new(&event), "sd_event_new")
        guard let event else {
            throw SystemdError("sd_event_new", code: ENOMEM)
        }
        handle = event
    }

    deinit {
        sd_event_unref(handle)
    }

    /// Blocks `signals` in the calling thread (and every thread it creates afterwards), as sd-event requires for
    /// signal and child sources. The daemon calls it first thing, with SIGCHLD and the signals it handles.
    public static func blockSignals(_ signals: [Int32]) throws {
        var set = sigset_t()
        sigemptyset(&set)
        for signo in signals {
            sigaddset(&set, signo)
        }
        let result = csystemd_sigprocmask_block(&set)
        if result != 0 {
            throw SystemdError("pthread_sigmask", code: result, detail: signals.map(signalName).joined(separator: ","))
        }
    }

    /// Runs the loop until `exit(code:)` is called; returns that code. The iteration hooks run after every
    /// iteration.
    @discardableResult
    public func run() throws -> Int32 {
        while sd_event_get_state(handle) != Int32(SD_EVENT_FINISHED) {
            try check(sd_event_run(handle, UInt64.max), "sd_event_run")
            runIterationHooks()
        }
        var code: Int32 = 0
        try check(sd_event_get_exit_code(handle, &code), "sd_event_get_exit_code")
        return code
    }

    /// Runs one iteration, waiting at most `timeout` microseconds (`UInt64.max` waits forever), then the iteration
    /// hooks. Returns false when the loop has finished (after `exit(code:)`).
    @discardableResult
    public func runOnce(timeout usec: UInt64) throws -> Bool {
        let result = try check(sd_event_run(handle, usec), "sd_event_run")
        runIterationHooks()
        return result > 0
    }

    /// Calls `body` after every iteration of `run()` and `runOnce(timeout:)` (each iteration dispatches at most one
    /// source), in the order the hooks were added, until the returned hook is cancelled or released.
    ///
    /// A post source does the same job at the price of an iteration of its own (a prepare, an epoll_wait and a
    /// dispatch) after every dispatch; a hook costs only its call. It must not block.
    public func addIterationHook(_ body: @escaping () -> Void) -> IterationHook {
        nextHookID += 1
        iterationHooks.append((nextHookID, body))
        return IterationHook(loop: self, id: nextHookID)
    }

    private var iterationHooks: [(id: Int, body: () -> Void)] = []
    private var nextHookID = 0

    func removeIterationHook(_ id: Int) {
        iterationHooks.removeAll { $0.id == id }
    }

    private func runIterationHooks() {
        // A copy: a hook may add or cancel hooks.
        for hook in iterationHooks { hook.body() }
    }

    /// Asks the loop to stop after the current iteration; `run()` then returns `code`.
    public func exit(code: Int32) {
        _ = sd_event_exit(handle, code)
    }

    /// The time of the current loop iteration on `clock`, in microseconds (the clock itself before the first one).
    public func now(_ clock: EventClock = .monotonic) -> UInt64 {
        var usec: UInt64 = 0
        guard sd_event_now(handle, clock.clockID, &usec) >= 0 else {
            return clock.currentMicroseconds
        }
        return usec
    }

    /// Lets sd-event send WATCHDOG=1 by itself at half the service's WatchdogSec. Returns false when the service
    /// manager did not ask for a watchdog.
    @discardableResult
    public func enableWatchdog() throws -> Bool {
        try check(sd_event_set_watchdog(handle, 1), "sd_event_set_watchdog") > 0
    }

    /// A one-shot timer firing at `usec` (absolute, on `clock`) within `accuracy` microseconds (0 = sd-event's
    /// default of 250 ms; use 1 for "as exact as possible"). Re-arm it with `EventSource.schedule(at:)`.
    public func addTimer(
        clock: EventClock = .monotonic, at usec: UInt64, accuracy: UInt64, _ handler: @escaping () -> Void
    ) throws -> EventSource {
        let source = EventSource(handler: .plain(handler))
        var handle: OpaquePointer?
        try check(
            sd_event_add_time(
                self.handle, &handle, clock.clockID, usec, accuracy,
                { _, _, userdata in
                    EventSource.from(userdata)?.dispatchPlain()
                    return 0
                },
                source.userdata),
            "sd_event_add_time")
        source.handle = handle
        return source
    }

    /// A one-shot timer firing `delay` microseconds after now on `clock`.
    public func addTimer(
        clock: EventClock = .monotonic, after delay: UInt64, accuracy: UInt64, _ handler: @escaping () -> Void
    ) throws -> EventSource {
        let (sum, overflow) = clock.currentMicroseconds.addingReportingOverflow(delay)
        return try addTimer(clock: clock, at: overflow ? UInt64.max : sum, accuracy: accuracy, handler)
    }

    /// Watches `fd` for `events`; the handler gets the events that occurred. The caller keeps owning `fd`.
    public func addIO(
        fd: Int32, events: IOEvents = .readable, _ handler: @escaping (IOEvents) -> Void
    ) throws -> EventSource {
        let source = EventSource(handler: .io(handler))
        var handle: OpaquePointer?
        try check(
            sd_event_add_io(
                self.handle, &handle, fd, events.rawValue,
                { _, _, revents, userdata in
                    EventSource.from(userdata)?.dispatchIO(revents)
                    return 0
                },
                source.userdata),
            "sd_event_add_io", "fd \(fd)")
        source.handle = handle
        return source
    }

    /// Calls the handler once when the child behind `pidfd` exits; sd-event reaps it afterwards. SIGCHLD must be
    /// blocked (see `blockSignals(_:)`). The caller keeps owning `pidfd`.
    public func addChild(pidfd: Int32, pid: pid_t, _ handler: @escaping (ChildExit) -> Void) throws -> EventSource {
        guard csystemd_signal_is_blocked(SIGCHLD) != 0 else {
            throw SystemdError("sd_event_add_child_pidfd", code: EBUSY, detail: "SIGCHLD is not blocked")
        }
        let source = EventSource(handler: .child(pid: pid, handler))
        var handle: OpaquePointer?
        try check(
            sd_event_add_child_pidfd(
                self.handle, &handle, pidfd, WEXITED,
                { _, info, userdata in
                    EventSource.from(userdata)?.dispatchChild(info)
                    return 0
                },
                source.userdata),
            "sd_event_add_child_pidfd", "pid \(pid)")
        source.handle = handle
        return source
    }

    /// Calls the handler for every delivery of `signo`, which must be blocked (see `blockSignals(_:)`).
    public func addSignal(_ signo: Int32, _ handler: @escaping (SignalInfo) -> Void) throws -> EventSource {
        guard csystemd_signal_is_blocked(signo) != 0 else {
            throw SystemdError("sd_event_add_signal", code: EBUSY, detail: "\(signalName(signo)) is not blocked")
        }
        let source = EventSource(handler: .signal(handler))
        var handle: OpaquePointer?
        try check(
            sd_event_add_signal(
                self.handle, &handle, signo,
                { _, info, userdata in
                    EventSource.from(userdata)?.dispatchSignal(info)
                    return 0
                },
                source.userdata),
            "sd_event_add_signal", signalName(signo))
        source.handle = handle
        return source
    }

    /// Calls the handler once, on the next loop iteration, before waiting for events.
    public func addDefer(_ handler: @escaping () -> Void) throws -> EventSource {
        let source = EventSource(handler: .plain(handler))
        var handle: OpaquePointer?
        try check(
            sd_event_add_defer(
                self.handle, &handle,
                { _, userdata in
                    EventSource.from(userdata)?.dispatchPlain()
                    return 0
                },
                source.userdata),
            "sd_event_add_defer")
        source.handle = handle
        return source
    }

    /// Calls the handler after every iteration in which some other (non-post) source was dispatched; a natural place
    /// to refresh derived state such as the STATUS= text.
    public func addPost(_ handler: @escaping () -> Void) throws -> EventSource {
        let source = EventSource(handler: .plain(handler))
        var handle: OpaquePointer?
        try check(
            sd_event_add_post(
                self.handle, &handle,
                { _, userdata in
                    EventSource.from(userdata)?.dispatchPlain()
                    return 0
                },
                source.userdata),
            "sd_event_add_post")
        source.handle = handle
        return source
    }

    /// Calls the handler whenever the wall clock is set discontinuously (settimeofday, NTP step, manual change),
    /// detected by a CLOCK_REALTIME timerfd armed with TFD_TIMER_CANCEL_ON_SET.
    public func addWallClockChangeWatcher(_ handler: @escaping () -> Void) throws -> EventSource {
        let fd = try WallClockTimer.create()
        let source = EventSource(handler: .wallClockChange(handler))
        source.ownedDescriptor = fd
        var handle: OpaquePointer?
        try check(
            sd_event_add_io(
                self.handle, &handle, fd, IOEvents.readable.rawValue,
                { _, _, revents, userdata in
                    EventSource.from(userdata)?.dispatchIO(revents)
                    return 0
                },
                source.userdata),
            "sd_event_add_io", "wall-clock timerfd")
        source.handle = handle
        return source
    }
}
