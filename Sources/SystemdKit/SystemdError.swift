import Glibc

/// A failed libsystemd or libc call: the function that failed and the errno it reported.
public struct SystemdError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The C function that failed, e.g. `sd_event_add_signal`.
    public let call: String
    /// The positive errno value.
    public let errno: Int32
    /// Extra context, such as the file descriptor or signal concerned.
    public let detail: String?

    /// Creates an error for `call` failing with the (positive or negative) errno `code`.
    public init(_ call: String, code: Int32, detail: String? = nil) {
        self.call = call
        self.errno = code < 0 ? -code : code
        self.detail = detail
    }

    public var description: String {
        let reason = String(cString: strerror(errno))
        if let detail {
            return "\(call) (\(detail)) failed: \(reason)"
        }
        return "\(call) failed: \(reason)"
    }
}

/// Throws when a libsystemd call returned a negative errno; returns the non-negative result.
@discardableResult
func check(_ result: Int32, _ call: String, _ detail: @autoclosure () -> String? = nil) throws -> Int32 {
    if result < 0 {
        throw SystemdError(call, code: result, detail: detail())
    }
    return result
}
