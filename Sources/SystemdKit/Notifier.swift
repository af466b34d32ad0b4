import CSystemd
import Glibc

/// Talks to the service manager through sd_notify(3): readiness, status text, reload and stop notices, watchdog.
///
/// Every call returns false, without error, when the process was not started by systemd (no `NOTIFY_SOCKET`), so the
/// daemon can call them unconditionally.
public struct Notifier: Sendable {
    /// Creates a notifier that leaves `NOTIFY_SOCKET` in the environment, so later calls keep working.
    public init() {}

    /// Sends raw `KEY=value` assignments, one per line. Returns true when a service manager received them.
    @discardableResult
    public func send(_ assignments: [String]) throws -> Bool {
        let state = assignments.joined(separator: "\n")
        return try check(sd_notify(0, state), "sd_notify", state) > 0
    }

    /// READY=1: start-up is complete (state loaded, socket listening). Also ends a reload started by `reloading()`.
    @discardableResult
    public func ready(status: String? = nil) throws -> Bool {
        try send(["READY=1"] + Self.statusAssignment(status))
    }

    /// STATUS=: a one-line human-readable state shown by `systemctl status`.
    @discardableResult
    public func status(_ text: String) throws -> Bool {
        try send(Self.statusAssignment(text))
    }

    /// RELOADING=1 with the MONOTONIC_USEC= stamp newer managers use to match the reload to its READY=1.
    @discardableResult
    public func reloading(status: String? = nil) throws -> Bool {
        try send(
            ["RELOADING=1", "MONOTONIC_USEC=\(EventClock.monotonic.currentMicroseconds)"]
                + Self.statusAssignment(status))
    }

    /// STOPPING=1: shutdown has begun.
    @discardableResult
    public func stopping(status: String? = nil) throws -> Bool {
        try send(["STOPPING=1"] + Self.statusAssignment(status))
    }

    /// WATCHDOG=1: one keep-alive ping. `EventLoop.enableWatchdog()` sends these by itself.
    @discardableResult
    public func watchdog() throws -> Bool {
        try send(["WATCHDOG=1"])
    }

    /// EXTEND_TIMEOUT_USEC=: asks for more time to finish starting, reloading or stopping.
    @discardableResult
    public func extendTimeout(byMicroseconds usec: UInt64) throws -> Bool {
        try send(["EXTEND_TIMEOUT_USEC=\(usec)"])
    }

    /// The service's watchdog interval in microseconds (WATCHDOG_USEC for this process), nil when none is set.
    public static var watchdogInterval: UInt64? {
        var usec: UInt64 = 0
        guard sd_watchdog_enabled(0, &usec) > 0 else { return nil }
        return usec
    }

    /// STATUS= must stay on one line: newlines would start a new assignment.
    static func statusAssignment(_ text: String?) -> [String] {
        guard let text else { return [] }
        let oneLine = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return ["STATUS=\(oneLine)"]
    }
}
