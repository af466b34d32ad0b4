import CSystemd
import Glibc

/// One registered sd-event source (timer, IO, child, signal, defer, post or wall-clock watcher).
///
/// The object owns both the `sd_event_source` and the Swift handler. Dropping the last reference, or calling
/// `cancel()`, disables and releases the source, so a handler never runs after its owner let go of it. A handler may
/// cancel its own source, or any other, while it runs.
public final class EventSource {
    /// Whether a source is dispatched: never, every time it is ready, or once and then switched off.
    public enum Enablement: Int32, Sendable {
        case off = 0
        case on = 1
        case oneShot = -1
    }

    enum Handler {
        case plain(() -> Void)
        case io((IOEvents) -> Void)
        case child(pid: pid_t, (ChildExit) -> Void)
        case signal((SignalInfo) -> Void)
        case wallClockChange(() -> Void)
    }

    var handle: OpaquePointer?
    let handler: Handler
    /// A descriptor this source created and must close (the wall-clock watcher's timerfd).
    var ownedDescriptor: Int32 = -1

    init(handler: Handler) {
        self.handler = handler
    }

    deinit {
        cancel()
    }

    /// The opaque pointer handed to sd-event as userdata. It is never retained by sd-event, which is safe because
    /// this object releases its `sd_event_source` before it goes away.
    var userdata: UnsafeMutableRawPointer {
        Unmanaged.passUnretained(self).toOpaque()
    }

    static func from(_ userdata: UnsafeMutableRawPointer?) -> EventSource? {
        guard let userdata else { return nil }
        return Unmanaged<EventSource>.fromOpaque(userdata).takeUnretainedValue()
    }

    /// True until `cancel()` is called.
    public var isActive: Bool {
        handle != nil
    }

    /// Disables and releases the source. Safe to call more than once and from inside any handler.
    public func cancel() {
        if let handle {
            self.handle = nil
            sd_event_source_disable_unref(handle)
        }
        if ownedDescriptor >= 0 {
            close(ownedDescriptor)
            ownedDescriptor = -1
        }
    }

    /// Switches the source off, on, or on for one dispatch.
    public func setEnabled(_ enablement: Enablement) throws {
        try check(sd_event_source_set_enabled(try requireHandle(), enablement.rawValue), "sd_event_source_set_enabled")
    }

    /// Sets the dispatch priority: among pending sources, lower values go first (`EventSource.idlePriority` last).
    public func setPriority(_ priority: Int64) throws {
        try check(sd_event_source_set_priority(try requireHandle(), priority), "sd_event_source_set_priority")
    }

    /// sd-event's `SD_EVENT_PRIORITY_IDLE`: dispatched only when nothing of normal priority is pending.
    public static let idlePriority = Int64(SD_EVENT_PRIORITY_IDLE)

    /// The current enablement.
    public var enablement: Enablement {
        guard let handle else { return .off }
        var value: Int32 = 0
        guard sd_event_source_get_enabled(handle, &value) >= 0 else { return .off }
        return Enablement(rawValue: value) ?? .off
    }

    /// Sets a timer's deadline, in microseconds on the timer's clock. It does not re-enable a timer that fired.
    public func setTime(_ usec: UInt64) throws {
        try check(sd_event_source_set_time(try requireHandle(), usec), "sd_event_source_set_time")
    }

    /// A timer's deadline in microseconds on its clock.
    public func time() throws -> UInt64 {
        var usec: UInt64 = 0
        try check(sd_event_source_get_time(try requireHandle(), &usec), "sd_event_source_get_time")
        return usec
    }

    /// Sets how late a timer may fire, so sd-event can coalesce wake-ups.
    public func setAccuracy(_ usec: UInt64) throws {
        try check(sd_event_source_set_time_accuracy(try requireHandle(), usec), "sd_event_source_set_time_accuracy")
    }

    /// Re-arms a one-shot timer: sets its deadline and enables it for one more dispatch.
    public func schedule(at usec: UInt64) throws {
        try setTime(usec)
        try setEnabled(.oneShot)
    }

    /// Changes the events an IO source waits for.
    public func setIOEvents(_ events: IOEvents) throws {
        try check(sd_event_source_set_io_events(try requireHandle(), events.rawValue), "sd_event_source_set_io_events")
    }

    /// A name shown in sd-event's debug logging.
    public var description: String? {
        get {
            guard let handle else { return nil }
            var name: UnsafePointer<CChar>?
            guard sd_event_source_get_description(handle, &name) >= 0, let name else { return nil }
            return String(cString: name)
        }
        set {
            guard let handle else { return }
            _ = sd_event_source_set_description(handle, newValue)
        }
    }

    private func requireHandle() throws -> OpaquePointer {
        guard let handle else {
            throw SystemdError("sd_event_source", code: ESTALE, detail: "source was cancelled")
        }
        return handle
    }

    func dispatchPlain() {
        if case .plain(let body) = handler {
            body()
        }
    }

    func dispatchIO(_ revents: UInt32) {
        switch handler {
        case .io(let body):
            body(IOEvents(rawValue: revents))
        case .wallClockChange(let body):
            if WallClockTimer.consume(ownedDescriptor) {
                body()
            }
        default:
            break
        }
    }

    func dispatchChild(_ info: UnsafePointer<siginfo_t>?) {
        guard case .child(let pid, let body) = handler, let info else { return }
        body(ChildExit(pid: pid, code: csystemd_siginfo_code(info), status: csystemd_siginfo_status(info)))
    }

    func dispatchSignal(_ info: UnsafePointer<signalfd_siginfo>?) {
        guard case .signal(let body) = handler, let info else { return }
        let fields = info.pointee
        body(SignalInfo(signal: Int32(fields.ssi_signo), senderPID: pid_t(fields.ssi_pid), senderUID: fields.ssi_uid))
    }
}

/// The realtime timerfd behind `EventLoop.addWallClockChangeWatcher`.
enum WallClockTimer {
    /// Creates a CLOCK_REALTIME timerfd armed far in the future with TFD_TIMER_CANCEL_ON_SET: any discontinuous change
    /// of the wall clock makes its next read fail with ECANCELED.
    static func create() throws -> Int32 {
        let fd = timerfd_create(CLOCK_REALTIME, csystemd_tfd_flags_nonblock_cloexec())
        if fd < 0 {
            throw SystemdError("timerfd_create", code: errno, detail: "CLOCK_REALTIME")
        }
        do {
            try arm(fd)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    static func arm(_ fd: Int32) throws {
        var spec = itimerspec()
        // 2100-01-01: far enough away never to fire; the point is only the cancel-on-set notification.
        spec.it_value.tv_sec = 4_102_444_800
        if timerfd_settime(fd, csystemd_tfd_timer_abstime_cancel_on_set(), &spec, nil) < 0 {
            throw SystemdError("timerfd_settime", code: errno, detail: "TFD_TIMER_CANCEL_ON_SET")
        }
    }

    /// Drains the timerfd after it became readable; true when the clock was set (ECANCELED). Re-arms either way.
    static func consume(_ fd: Int32) -> Bool {
        guard fd >= 0 else { return false }
        var expirations: UInt64 = 0
        let count = read(fd, &expirations, MemoryLayout<UInt64>.size)
        let clockWasSet = count < 0 && errno == ECANCELED
        if clockWasSet || count > 0 {
            try? arm(fd)
        }
        return clockWasSet
    }
}
