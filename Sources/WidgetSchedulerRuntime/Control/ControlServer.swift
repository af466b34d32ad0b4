#if canImport(Glibc)
import Glibc
#endif
import Logging
import SystemdKit
import WidgetProtocol
import WidgetSchedulerCore

/// The Varlink server of the control socket, driven by the daemon's sd-event loop. No threads, no async.
///
/// It listens on a Unix socket it creates (`listen(path:)`) or one systemd passed (`adopt(listeningSocket:)`),
/// accepts non-blocking connections within `ControlLimits` (one more is told `TooManyConnections` and closed),
/// frames NUL-terminated messages, serves `org.varlink.service` itself and hands each call of
/// `io.widgetscheduler.Scheduler` to the `ControlHandler`. An idle connection costs its descriptor, one epoll
/// registration and a small object: buffers are released whenever they empty.
///
/// No local user can deny the socket to the others (`ControlLimits`): connections are capped per uid, with a
/// reserve for root and the admin group; a connection that holds a message incomplete past `message-timeout`, or
/// keeps the socket without traffic or open call past `idle-timeout`, is closed (one timer, armed for the earliest
/// such moment); every byte connections hold counts against `buffer-budget`, and past it the connections holding the
/// most are dropped with a last error; each connection gets one call per loop iteration.
public final class ControlServer: ControlConnectionDelegate {
    /// Limits and the `GetInfo` answer.
    public struct Configuration: Sendable {
        public var info: VarlinkServiceInfo
        /// What one local user may hold of the socket.
        public var limits: ControlLimits
        /// The largest message accepted (1 MiB); a larger one gets `InvalidMessage` and its connection is closed.
        public var maximumMessageSize: Int
        /// Pending output above which a connection's requests wait until the client reads.
        public var outputHighWater: Int
        /// The admin group, whose members (with root) are not held to the per-user cap and may use the reserve.
        public var adminGroupID: UInt32?
        /// The daemon's pid: a peer with its uid that descends from it is a provider's (`PeerCredentials.isProvider`).
        /// nil in a process whose children are not all providers.
        public var providerAncestor: Int32?

        /// `version` and `url` are what `GetInfo` reports (the project's home page, empty when it has none).
        public init(
            version: String, url: String = "", limits: ControlLimits = ControlLimits(),
            maximumMessageSize: Int = ControlInterface.maximumMessageSize,
            outputHighWater: Int = 1 << 20, adminGroupID: UInt32? = nil
        ) {
            self.info = VarlinkServiceInfo(
                vendor: "widget-scheduler", product: "widget-scheduler", version: version, url: url,
                interfaces: [ControlInterface.service, ControlInterface.name])
            self.limits = limits
            self.maximumMessageSize = maximumMessageSize
            self.outputHighWater = outputHighWater
            self.adminGroupID = adminGroupID
        }
    }

    private struct Client {
        let connection: ControlConnection
        let fd: Int32
        let source: EventSource
        var interest: ControlConnection.Interest
        /// The send buffer asked for (`flush`), or 0 for the socket's default.
        var sendBuffer = 0
        /// When a byte was last read or written, in seconds on the loop's monotonic clock.
        var lastTraffic: Double
        /// When the first byte of the message still incomplete came, nil when none is.
        var messageStarted: Double?
        /// The connection's `messagesTaken` when `messageStarted` was set.
        var messagesTaken = 0
    }

    private let loop: EventLoop
    private weak var handler: ControlHandler?
    private var configuration: Configuration
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
    private var admission = ConnectionAdmission()
    private var deadlines = ConnectionDeadlines()
    /// The one timer for every connection's deadline, armed for the earliest; created on first use.
    private var deadlineTimer: EventSource?
    /// The moment `deadlineTimer` is armed for, in microseconds, nil when it is off.
    private var deadlineTimerArmedAt: UInt64?
    private let budget: BufferBudget
    /// Connections with calls received that their last turn could not dispatch; each gets a turn per iteration.
    private var waitingCalls: Set<Int> = []
    private var turnsDue: Set<Int> = []
    /// Wakes the loop for the next turn of `waitingCalls` when nothing else would. Its priority is below every other
    /// source's, so a pending event of another connection or of the scheduler always goes first.
    private var turnWakeup: EventSource?
    /// Connections refused, and closed for a timeout, are logged once per interval each: a flood is one line.
    private var refusalLog = LogThrottle(interval: 10)
    private var timeoutLog = LogThrottle(interval: 10)

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
        self.budget = BufferBudget(limit: configuration.limits.bufferBudget)
        serviceHook = loop.addIterationHook { [unowned self] in serviceQueued() }
    }

    deinit {
        stop()
    }

    /// Connections open now.
    public var connectionCount: Int { clients.count }

    /// Bytes all connections hold in the daemon now, counted against `buffer-budget`.
    public var bufferedByteCount: Int { budget.used }

    /// The limits in force.
    public var limits: ControlLimits { configuration.limits }

    /// Applies new limits (a reloaded settings file). Open connections stay, even above a lowered cap; deadlines
    /// that come earlier are taken at once, later ones when the old ones come due.
    public func replaceLimits(_ limits: ControlLimits) {
        configuration.limits = limits
        budget.limit = limits.bufferBudget
        for (id, client) in clients {
            client.connection.backlogLimit = limits.watchBacklogLimit
            deadlines.update(id: id, at: deadline(of: client)?.at)
        }
        armDeadlineTimer()
    }

    /// The soft limit on open descriptors now.
    public static func descriptorLimit() -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

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
        deadlineTimer?.cancel()
        deadlineTimer = nil
        turnWakeup?.cancel()
        turnWakeup = nil
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
        let limits = configuration.limits
        // Beyond the cap, the peer is not even looked up: its descriptor is all it costs.
        guard admission.total < limits.maximumConnections else {
            refuse(fd, .tooManyConnections(limit: limits.maximumConnections), peer: nil)
            return
        }
        guard let peer = try? PeerCredentials.of(socket: fd, providerAncestor: configuration.providerAncestor) else {
            close(fd)
            return
        }
        let administrator = ConnectionAdmission.isAdministrator(peer, adminGroupID: configuration.adminGroupID)
        if let refusal = admission.refusal(uid: peer.uid, administrator: administrator, limits: limits) {
            refuse(fd, refusal, peer: peer)
            return
        }
        nextID += 1
        let id = nextID
        let connection = ControlConnection(
            id: id, peer: peer, router: router, handler: handler,
            maximumMessageSize: configuration.maximumMessageSize,
            outputHighWater: configuration.outputHighWater, backlogLimit: limits.watchBacklogLimit, budget: budget)
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
        admission.admit(uid: peer.uid)
        let now = monotonicNow()
        clients[id] = Client(connection: connection, fd: fd, source: source, interest: .init(read: true, write: false),
                             lastTraffic: now)
        deadlines.update(id: id, at: now + limits.idleTimeout)
        armDeadlineTimer()
    }

    /// Tells a connection over a limit why, without blocking, and closes it. The log gets the first refusal and
    /// then at most one line per `refusalLogInterval` counting the others, so a flood cannot flood the journal.
    private func refuse(_ fd: Int32, _ error: ControlError, peer: PeerCredentials?) {
        if var bytes = try? VarlinkCoding.encode(VarlinkReply(error: error)) {
            bytes.append(0)
            _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
        }
        close(fd)
        guard let leftOut = refusalLog.admit(at: monotonicNow()) else { return }
        let who = peer.map { " from \($0)" } ?? ""
        let others = leftOut > 0 ? " (and \(leftOut) more since the last such line)" : ""
        logger.warning("control connection refused\(who): \(error.message)\(others)")
    }

    /// Out of descriptors: stop accepting until a connection closes, or a second passes.
    private func pauseAccepting() {
        let open = Counted.phrase(clients.count, "connection")
        logger.error("control socket: out of descriptors (\(open)); accepting again in 1 s")
        try? listenSource?.setEnabled(.off)
        retryTimer = try? loop.addTimer(after: 1_000_000, accuracy: 100_000) { [unowned self] in resumeAccepting() }
    }

    private func resumeAccepting() {
        retryTimer?.cancel()
        retryTimer = nil
        if listenFD >= 0 { try? listenSource?.setEnabled(.on) }
    }

    private func ready(id: Int, events: IOEvents) {
        guard var client = clients[id] else { return }
        if events.contains(.error) {
            client.connection.abort()
        } else if events.contains(.hangup) {
            // Both directions are shut: take what was sent, then close, since nothing can be written back and a
            // paused reader would otherwise see the same hang-up on every loop iteration.
            read(&client)
            client.connection.abort()
        } else if events.contains(.readable) {
            read(&client)
        }
        clients[id] = client
        service(id)
    }

    func connectionNeedsService(_ connection: ControlConnection) {
        queuedService.insert(connection.id)
        // The output may come after this iteration's service: a reply the daemon sends once its state is written,
        // from its own iteration hook, which runs after this server's. One more iteration sends it, instead of the
        // next unrelated event, which may be minutes away.
        wakeForNextTurn()
    }

    /// After every loop iteration: the next turn of connections with calls waiting, then every connection with
    /// output queued from outside its own handling; then, if the buffers are past the budget, the largest holders
    /// are dropped.
    private func serviceQueued() {
        if !waitingCalls.isEmpty {
            swap(&waitingCalls, &turnsDue)
            for id in turnsDue {
                clients[id]?.connection.newTurn()
                service(id)
            }
            turnsDue.removeAll(keepingCapacity: true)
            if !waitingCalls.isEmpty { wakeForNextTurn() }
        }
        if !queuedService.isEmpty {
            swap(&queuedService, &servicing)
            for id in servicing { service(id) }
            servicing.removeAll(keepingCapacity: true)
        }
        if budget.isExceeded { shed() }
    }

    /// Writes what can be written, then closes the connection or updates what the loop waits for, its turns and its
    /// deadline.
    private func service(_ id: Int) {
        guard var client = clients[id] else { return }
        let before = (client.interest, client.sendBuffer, client.lastTraffic, client.messageStarted,
                      client.messagesTaken)
        flush(&client)
        let connection = client.connection
        if connection.closed || connection.dropped {
            remove(id)
            return
        }
        let interest = connection.interest
        if interest != client.interest {
            var events: IOEvents = []
            if interest.read { events.insert(.readable) }
            if interest.write { events.insert(.writable) }
            try? client.source.setIOEvents(events)
            client.interest = interest
        }
        if connection.hasWaitingCalls && waitingCalls.insert(id).inserted {
            wakeForNextTurn()
        }
        if connection.holdsIncompleteMessage() {
            // A message taken since the last look ended the one that was incomplete: this one began with the read
            // that brought its first byte, the last one.
            if client.messageStarted == nil || connection.messagesTaken != client.messagesTaken {
                client.messageStarted = client.lastTraffic
            }
        } else {
            client.messageStarted = nil
        }
        client.messagesTaken = connection.messagesTaken
        if (client.interest, client.sendBuffer, client.lastTraffic, client.messageStarted,
            client.messagesTaken) != before {
            clients[id] = client
        }
        deadlines.update(id: id, at: deadline(of: client)?.at)
        armDeadlineTimer()
    }

    private func read(_ client: inout Client) {
        // A bounded number of reads per wake-up keeps one busy client from starving the others.
        for _ in 0..<16 {
            guard client.connection.interest.read else { return }
            let count = readBuffer.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                client.lastTraffic = monotonicNow()
                readBuffer.withUnsafeBytes { client.connection.receive(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
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

    // MARK: - Turns, deadlines, the budget

    private func wakeForNextTurn() {
        if turnWakeup == nil {
            turnWakeup = try? loop.addDefer {}
            try? turnWakeup?.setPriority(Self.turnPriority)
        }
        try? turnWakeup?.setEnabled(.oneShot)
    }

    /// Below sd-event's normal priority (0), above the daemon's idle-time state write.
    private static let turnPriority: Int64 = 10

    private func monotonicNow() -> Double {
        Double(loop.now(.monotonic)) / 1_000_000
    }

    private func deadline(of client: Client) -> (at: Double, reason: ConnectionDeadlines.Reason)? {
        ConnectionDeadlines.deadline(
            of: ConnectionDeadlines.Activity(lastTraffic: client.lastTraffic, messageStarted: client.messageStarted,
                                             callOpen: client.connection.activeCall != nil),
            limits: configuration.limits)
    }

    /// Arms the one timer for the earliest deadline, or switches it off when there is none.
    private func armDeadlineTimer() {
        guard let earliest = deadlines.earliest else {
            if deadlineTimerArmedAt != nil {
                try? deadlineTimer?.setEnabled(.off)
                deadlineTimerArmedAt = nil
            }
            return
        }
        let usec = UInt64(max(0, earliest) * 1_000_000)
        guard usec != deadlineTimerArmedAt else { return }
        if deadlineTimer == nil {
            deadlineTimer = try? loop.addTimer(clock: .monotonic, at: usec, accuracy: timerAccuracy) {
                [unowned self] in deadlinesDue()
            }
        } else {
            try? deadlineTimer?.setAccuracy(timerAccuracy)
            try? deadlineTimer?.schedule(at: usec)
        }
        deadlineTimerArmedAt = deadlineTimer == nil ? nil : usec
    }

    /// A timeout a tenth late is no loss; coalescing it with other wake-ups saves one.
    private var timerAccuracy: UInt64 {
        let shortest = min(configuration.limits.messageTimeout, configuration.limits.idleTimeout)
        return UInt64(max(1_000, min(1_000_000, shortest * 100_000)))
    }

    private func deadlinesDue() {
        deadlineTimerArmedAt = nil
        let now = monotonicNow()
        for id in deadlines.takeDue(now: now) {
            guard let client = clients[id] else { continue }
            guard let deadline = deadline(of: client) else { continue }
            if deadline.at <= now {
                let seconds = deadline.reason == .idle
                    ? configuration.limits.idleTimeout : configuration.limits.messageTimeout
                let error = ControlError.connectionTimedOut(deadline.reason, seconds: seconds)
                if let leftOut = timeoutLog.admit(at: now) {
                    let others = leftOut > 0 ? " (and \(leftOut) more since the last such line)" : ""
                    logger.info("control connection of \(client.connection.peer): \(error.message)\(others)")
                }
                client.connection.drop(error)
                service(id)
            } else {
                deadlines.update(id: id, at: deadline.at)
            }
        }
        armDeadlineTimer()
    }

    /// The buffers passed the budget: the connections holding the most are dropped, each told why if its socket
    /// takes the reply, until a tenth of the budget is free again (so that the next few bytes do not make another
    /// round of this).
    private func shed() {
        let target = budget.limit - budget.limit / 10
        let holders = clients.map { (id: $0.key, held: $0.value.connection.heldByteCount) }
            .filter { $0.held > 0 }.sorted { $0.held > $1.held }
        var dropped = 0
        for holder in holders where budget.used > target {
            guard let client = clients[holder.id] else { continue }
            client.connection.drop(.bufferFull(.daemonBudget, limit: budget.limit))
            service(holder.id)
            dropped += 1
        }
        if dropped > 0 {
            logger.warning("""
                control buffers past buffer-budget (\(budget.limit) bytes): dropped the \(dropped) connection(s) \
                holding the most
                """)
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
                client.lastTraffic = monotonicNow()
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
        admission.release(uid: client.connection.peer.uid)
        deadlines.remove(id: id)
        waitingCalls.remove(id)
        if retryTimer != nil { resumeAccepting() }
    }

    /// Whether a server listens at `path` now: a stale socket refuses connections; a live one accepts them or, with
    /// a full backlog, says EAGAIN (the socket is non-blocking so that case cannot hang the start).
    ///
    /// A socket whose server died can still accept: a child the dead daemon cloned holds a copy of the listening
    /// descriptor until its exec closes it, and after a kill -9 such a child may outlive its parent by a moment.
    /// The kernel names the process that listened (`SO_PEERCRED`); when it is gone, nobody serves the socket.
    static func someoneListens(at path: String) -> Bool {
        let fd = socket(
            AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard let connected = UnixSocketAddress(path: path)?.connect(fd) else { return false }
        guard connected == 0 else { return errno == EAGAIN || errno == EINPROGRESS }
        guard let listener = try? PeerCredentials.of(socket: fd), listener.pid > 0 else { return true }
        return kill(listener.pid, 0) == 0 || errno != ESRCH
    }
}
