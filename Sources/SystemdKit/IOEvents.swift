/// epoll event bits for `EventLoop.addIO`, as requested and as reported to the handler.
public struct IOEvents: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Data can be read (EPOLLIN).
    public static let readable = IOEvents(rawValue: 0x001)
    /// Urgent data can be read (EPOLLPRI).
    public static let priority = IOEvents(rawValue: 0x002)
    /// Data can be written (EPOLLOUT).
    public static let writable = IOEvents(rawValue: 0x004)
    /// An error condition; always reported, never needs requesting (EPOLLERR).
    public static let error = IOEvents(rawValue: 0x008)
    /// The peer hung up; always reported, never needs requesting (EPOLLHUP).
    public static let hangup = IOEvents(rawValue: 0x010)
    /// The peer shut down its writing half (EPOLLRDHUP).
    public static let peerClosed = IOEvents(rawValue: 0x2000)
}
