#if canImport(Glibc)
import Glibc
#endif
import Logging
import SystemdKit
import WidgetProtocol

/// The Varlink server of the control socket, driven by the daemon's sd-event loop. No threads, no async.
///
/// It listens on a Unix socket it creates (`listen(path:)`) or one systemd passed (`adopt(listeningSocket:)`),
/// accepts non-blocking connections up to `Configuration.maximumConnections` (one more is told
/// `TooManyConnections` and closed), frames NUL-terminated messages, serves `org.varlink.service` itself and hands
/// each call of `io.widgetscheduler.Scheduler` to the `ControlHandler`. An idle connection costs its descriptor, one
/// epoll registration and a small object: buffers are released whenever they empty.
public final class ControlServer: ControlConnectionDelegate {
    /// Limits and the `GetInfo` answer.
    public struct Configuration: Sendable {
        public var info: VarlinkServiceInfo
        /// Connections served at once; one more is refused.
        public var maximumConnections: Int
        /// The largest message accepted (1 MiB); a larger one gets `InvalidMessage` and its connection is closed.
        public var maximumMessageSize: Int
        /// Pending output above which a connection's requests wait until the client reads.
        public var outputHighWater: Int
        /// Pending output above which a client that does not read its stream is dropped.
        public var outputLimit: Int

        /// `version` and `url` are what `GetInfo` reports (the project's home page, empty when it has none).
        public init(
            version: String, url: String = "", maximumConnections: Int = 4096,
            maximumMessageSize: Int = ControlInterface.maximumMessageSize,
            outputHighWater: Int = 1 << 20, outputLimit: Int = 16 << 20
        ) {
            self.info = VarlinkServiceInfo(
                vendor: "widget-scheduler", product: "widget-scheduler", version: version, url: url,
                interfaces: [ControlInterface.service, ControlInterface.name])
            self.maximumConnections = maximumConnections
            self.maximumMessageSize = maximumMessageSize
            self.outputHighWater = outputHighWater
            self.outputLimit = outputLimit
        }
    }

    private struct Client {
        let connection: ControlConnection
        let fd: Int32
        let source: EventSource
        var interest: ControlConnection.Interest
        /// The send buffer asked for (`flush`), or 0 for the socket's default.
        var sendBuffer = 0
    }

    private let loop: EventLoop
    private weak var handler: ControlHandler?
    private let configuration: Configuration
    private let router: ControlRouter
    private var listenFD: Int32 = -1
    private var listenSource: EventSource?
    private var retryTimer: EventSource?
    private var ownsSocketPath: String?
    private var clients: [Int: Client] = [:]
    private var nextID = 0
    private let logger: Logger
    /// One receive buffer for all connections: reads happen one at a time on the loop's thread.
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// Connections with output queued from outside their own dispatch (stream replies, pending calls' replies),
    /// written at the end of the loop iteration: the events of one iteration go out in one send per connection.
    private var queuedService: Set<Int> = []
    /// The queued connections being serviced, swapped with `queuedService` so neither set is copied or reallocated
    /// on an iteration (a watcher's events queue its connection on nearly every one).
    private var servicing: Set<Int> = []
    private var serviceHook: IterationHook?

    /// A server that answers calls through `handler` (held weakly, so the daemon may own the server and be the
    /// handler). Nothing listens until `listen(path:)` or `adopt(listeningSocket:)`. Refused connections and running
    /// out of descriptors are logged to `logger`; refused calls are the handler's to log.
    public init(
        loop: EventLoop, handler: ControlHandler, configuration: Configuration,
        logger: Logger = Logger(label: "widget-scheduler.control")
    ) {
        self.loop = loop
        self.handler = handler
        self.configuration = configuration
        self.router = ControlRouter(info: configuration.info)
        self.logger = logger
        serviceHook = loop.addIterationHook { [unowned self] in serviceQueued() }
    }

    deinit {
        stop()
    }

    /// Connections open now.
    public var connectionCount: Int { clients.count }

    /// Raises the soft limit on open descriptors to the hard limit (at most `cap`), so that thousands of idle
    /// control connections do not exhaust the usual soft limit of 1024. Call it once at daemon start. Returns the
    /// limits the process had when it raised them, nil when it left them as they were: what its children should be
    /// given back (`ProviderRunner.childDescriptorLimit`), since they would otherwise inherit the raised one.
    @discardableResult
    public static func raiseDescriptorLimit(cap: UInt64 = 65_536) -> rlimit? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        let wanted = min(limit.rlim_max, rlim_t(cap))
        guard limit.rlim_cur < wanted else { return nil }
        var raised = limit
        raised.rlim_cur = wanted
        guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 else { return nil }
        return limit
    }

    /// Creates, binds and listens on a Unix socket at `path`, mode 0666 (authorization is per call, by peer
    /// credentials). A stale socket left by a dead daemon is replaced; a live one is an error.
    public func listen(path: String) throws(SystemCallError) {
        guard let address = UnixSocketAddress(path: path) else {
            throw SystemCallError(call: "bind \(path): path too long", errno: ENAMETOOLONG)
        }
        if Self.someoneListens(at: path) {
            throw SystemCallError(call: "bind \(path): another server listens there", errno: EADDRINUSE)
        }
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
            | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError(call: "socket(AF_UNIX)", errno: errno) }
        guard address.bind(fd) == 0 else {
            let error = SystemCallError(call: "bind \(path)", errno: errno)
            close(fd)
            throw error
        }
        chmod(path, 0o666)
        guard Glibc.listen(fd, SOMAXCONN) == 0 else {
            let error = SystemCallError(call: "listen \(path)", errno: errno)
            close(fd)
            unlink(path)
            throw error
        }
        ownsSocketPath = path
        do {
            try start(listening: fd)
        } catch {
            close(fd)
            unlink(path)
            ownsSocketPath = nil
            throw error
        }
    }

    /// Serves a listening socket passed by systemd (`sd_listen_fds`). It is made non-blocking; the server closes it
    /// on `stop()` but never unlinks its path, which belongs to the socket unit.
    public func adopt(listeningSocket fd: Int32) throws(SystemCallError) {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw SystemCallError(call: "fcntl(O_NONBLOCK) on fd \(fd)", errno: errno)
        }
        try start(listening: fd)
    }

    private func start(listening fd: Int32) throws(SystemCallError) {
        do {
            listenSource = try loop.addIO(fd: fd, events: .readable) { [unowned self] _ in acceptAll() }
        } catch {
            throw SystemCallError(call: "sd_event_add_io (listening socket): \(error)", errno: EINVAL)
        }
        listenFD = fd
    }

    /// Stops listening and closes every connection; open streams first get their final empty reply (best effort,
    /// without blocking). Pending calls see `onClose`. Safe to call twice.
    public func stop() {
        serviceHook?.cancel()
        serviceHook = nil
        queuedService.removeAll()
        listenSource?.cancel()
        listenSource = nil
        retryTimer?.cancel()
        retryTimer = nil
        if listenFD >= 0 {
            close(listenFD)
            listenFD = -1
        }
        if let path = ownsSocketPath {
            unlink(path)
            ownsSocketPath = nil
        }
        for id in Array(clients.keys) {
            // Ending a stream may already have closed and removed the connection.
            guard let client = clients[id] else { continue }
            client.connection.endForShutdown()
            if var client = clients[id] { flush(&client) }
            remove(id)
        }
    }

    private func acceptAll() {
        // A bounded batch per wake-up keeps one flood from starving the loop's other sources.
        for _ in 0..<256 {
            // accept4 hides behind _GNU_SOURCE in Glibc's module; accept plus fcntl does the same on this one thread,
            // and the provider runner closes every inherited descriptor anyway.
            let fd = accept(listenFD, nil, nil)
            if fd < 0 {
                switch errno {
                case EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED: return
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    pauseAccepting()
                    return
                default: return
                }
            }
            let flags = fcntl(fd, F_GETFL)
            guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0, fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 else {
                close(fd)
                continue
            }
            accepted(fd)
        }
    }

    private func accepted(_ fd: Int32) {
        guard clients.count < configuration.maximumConnections else {
            logger.warning("control connection refused: \(configuration.maximumConnections) connections open")
            refuse(fd, ControlError.tooManyConnections(limit: configuration.maximumConnections))
            return
        }
        guard let peer = try? PeerCredentials.of(socket: fd) else {
            close(fd)
            return
        }
        nextID += 1
        let id = nextID
        let connection = ControlConnection(
            id: id, peer: peer, router: router, handler: handler,
            maximumMessageSize: configuration.maximumMessageSize,
            outputHighWater: configuration.outputHighWater, outputLimit: configuration.outputLimit)
        connection.delegate = self
        let source: EventSource
        do {
            source = try loop.addIO(fd: fd, events: .readable) { [unowned self] events in
                ready(id: id, events: events)
            }
        } catch {
            close(fd)
            return
        }
        clients[id] = Client(connection: connection, fd: fd, source: source, interest: .init(read: true, write: false))
    }

    /// Tells a connection over the limit why, without blocking, and closes it.
    private func refuse(_ fd: Int32, _ error: ControlError) {
        if var bytes = try? VarlinkCoding.encode(VarlinkReply(error: error)) {
            bytes.append(0)
            _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
        }
        close(fd)
    }

    /// Out of descriptors: stop accepting until a connection closes, or a second passes.
    private func pauseAccepting() {
        logger.error("control socket: out of descriptors (\(clients.count) connections); accepting again in 1 s")
        try? listenSource?.setEnabled(.off)
        retryTimer = try? loop.addTimer(after: 1_000_000, accuracy: 100_000) { [unowned self] in resumeAccepting() }
    }

    private func resumeAccepting() {
        retryTimer?.cancel()
        retryTimer = nil
        if listenFD >= 0 { try? listenSource?.setEnabled(.on) }
    }

    private func ready(id: Int, events: IOEvents) {
        guard let client = clients[id] else { return }
        if events.contains(.error) {
            client.connection.abort()
        } else if events.contains(.hangup) {
            // Both directions are shut: take what was sent, then close, since nothing can be written back and a
            // paused reader would otherwise see the same hang-up on every loop iteration.
            read(client)
            client.connection.abort()
        } else if events.contains(.readable) {
            read(client)
        }
        service(id)
    }

    func connectionNeedsService(_ connection: ControlConnection) {
        queuedService.insert(connection.id)
    }

    private func serviceQueued() {
        guard !queuedService.isEmpty else { return }
        swap(&queuedService, &servicing)
        for id in servicing { service(id) }
        servicing.removeAll(keepingCapacity: true)
    }

    /// Writes what can be written, then closes the connection or updates what the loop waits for.
    private func service(_ id: Int) {
        guard var client = clients[id] else { return }
        let before = (client.interest, client.sendBuffer)
        flush(&client)
        if client.connection.closed {
            remove(id)
            return
        }
        let interest = client.connection.interest
        if interest != client.interest {
            var events: IOEvents = []
            if interest.read { events.insert(.readable) }
            if interest.write { events.insert(.writable) }
            try? client.source.setIOEvents(events)
            client.interest = interest
        }
        if (client.interest, client.sendBuffer) != before { clients[id] = client }
    }

    private func read(_ client: Client) {
        // A bounded number of reads per wake-up keeps one busy client from starving the others.
        for _ in 0..<16 {
            guard client.connection.interest.read else { return }
            let count = readBuffer.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                let bytes = Array(readBuffer[0..<count])
                bytes.withUnsafeBytes { client.connection.receive($0) }
                if count < readBuffer.count { return }
            } else if count == 0 {
                client.connection.receiveEnd()
                return
            } else {
                if errno == EINTR { continue }
                if errno != EAGAIN && errno != EWOULDBLOCK { client.connection.abort() }
                return
            }
        }
    }

    /// A reply larger than a socket's default send buffer (net.core.wmem_default, 208 KiB) leaves in several writes,
    /// each waiting for the client to drain the last (a kind's `Reload` of 10 000 widgets is 889 KB): such a
    /// connection's buffer is raised to hold the reply, up to 4 MiB (the kernel caps it at net.core.wmem_max).
    private static let largeOutput = 256 << 10

    private func flush(_ client: inout Client) {
        let wanted = min(client.connection.pendingOutputCount, 4 << 20)
        if wanted > Self.largeOutput, wanted > client.sendBuffer {
            var size = Int32(wanted)
            if setsockopt(client.fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size)) == 0 {
                client.sendBuffer = wanted
            }
        }
        while client.connection.pendingOutputCount > 0 {
            let written = client.connection.withPendingOutput {
                send(client.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if written > 0 {
                client.connection.didWrite(written)
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                if written < 0 && errno != EAGAIN && errno != EWOULDBLOCK { client.connection.abort() }
                return
            }
        }
    }

    private func remove(_ id: Int) {
        guard let client = clients.removeValue(forKey: id) else { return }
        client.connection.abort()
        client.source.cancel()
        close(client.fd)
        if retryTimer != nil { resumeAccepting() }
    }

    /// Whether a server listens at `path` now: a stale socket refuses connections; a live one accepts them or, with
    /// a full backlog, says EAGAIN (the socket is non-blocking so that case cannot hang the start).
    private static func someoneListens(at path: String) -> Bool {
        let fd = socket(
            AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard let connected = UnixSocketAddress(path: path)?.connect(fd) else { return false }
        return connected == 0 || errno == EAGAIN || errno == EINPROGRESS
    }
}
