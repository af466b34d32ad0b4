import Foundation
import WidgetProtocol

/// Told when a connection has something to write, was closed or dropped, or has calls waiting for its next turn,
/// outside the server's own handling of it.
protocol ControlConnectionDelegate: AnyObject {
    func connectionNeedsService(_ connection: ControlConnection)
}

/// One client connection as a state machine with no system calls: bytes in (`receive`, `receiveEnd`), calls
/// dispatched in order, reply bytes out (`pendingOutput`, `didWrite`). The server moves bytes between it and the
/// socket; tests drive it directly.
///
/// Calls are answered in order: while a call is pending or streaming, later requests wait in the framer. Output
/// above `outputHighWater` pauses request processing and reading (backpressure). One call is dispatched per turn
/// (`newTurn()`): later calls already received wait, and reading pauses, until the server gives the next one, so a
/// burst on one connection (`oneway` calls included) cannot hold the loop from the others. A `oneway` call of a
/// method that changes nothing is not dispatched at all: without its reply it has no effect.
///
/// Every byte its buffers hold is counted in the shared `BufferBudget`. It is dropped (`drop(_:)`: a last error
/// reply, then closed) when a stream's unread replies pass `backlogLimit`, or when it grows past
/// `BufferBudget.shareAtRisk` while the budget is exceeded.
final class ControlConnection {
    /// What the server should do with the socket after a step.
    struct Interest: Equatable {
        var read: Bool
        var write: Bool
    }

    let id: Int
    let peer: PeerCredentials
    weak var delegate: ControlConnectionDelegate?
    private let router: ControlRouter
    private weak var handler: ControlHandler?
    private var framer: VarlinkFramer
    private var output: [UInt8] = []
    private var outputStart = 0
    private(set) var activeCall: VarlinkCall?
    private(set) var inputEnded = false
    /// Set once the connection must close as soon as its output is written.
    private(set) var closing = false
    /// Set once the connection is finished: the server closes the socket.
    private(set) var closed = false
    /// Set by `drop(_:)`: the server writes what it can of the last reply at once and closes the socket.
    private(set) var dropped = false
    /// Set when calls were received that this turn could not dispatch: the server gives the connection another turn.
    private(set) var hasWaitingCalls = false
    private var processing = false
    /// Messages taken out of the framer so far: when it changes, a message that was incomplete has ended.
    private(set) var messagesTaken = 0
    /// Calls this turn may still dispatch.
    private var callAllowance = ControlConnection.callsPerTurn
    /// Whether the bytes written so far end inside a message, so that a last reply must wait for its end.
    private var outputEndsInsideMessage = false
    let outputHighWater: Int
    /// Bytes of a stream's replies that may wait unread (`watch-backlog-limit`).
    var backlogLimit: Int
    private let budget: BufferBudget
    /// Bytes counted in `budget` for this connection.
    private var accounted = 0

    /// Calls dispatched per turn: each may be costly (a `Reload` of thousands of widgets), so other connections and
    /// the scheduler get the loop between any two of one connection's.
    static let callsPerTurn = 1

    init(
        id: Int, peer: PeerCredentials, router: ControlRouter, handler: ControlHandler?,
        maximumMessageSize: Int = ControlInterface.maximumMessageSize,
        outputHighWater: Int = 1 << 20, backlogLimit: Int = 4 << 20, budget: BufferBudget = BufferBudget(limit: .max)
    ) {
        self.id = id
        self.peer = peer
        self.router = router
        self.handler = handler
        self.framer = VarlinkFramer(maximumMessageSize: maximumMessageSize)
        self.outputHighWater = outputHighWater
        self.backlogLimit = backlogLimit
        self.budget = budget
    }

    /// Bytes waiting to be written.
    var pendingOutputCount: Int { output.count - outputStart }

    /// Bytes of memory this connection's buffers hold in the daemon: what was received and not yet dispatched, and
    /// what is not yet written, with the room their arrays keep to grow (an array doubles as it grows, so this is
    /// what the budget must count to bound the daemon's memory).
    var heldByteCount: Int { framer.capacity + output.capacity }

    /// Whether the bytes received and not dispatched are the start of a message whose end has not come. Calls that
    /// came whole and wait for their turn, or for a pending call, do not count: the daemon holds them back, not the
    /// client.
    func holdsIncompleteMessage() -> Bool {
        framer.bufferedByteCount > 0 && !framer.containsCompleteMessage()
    }

    /// Which readiness the server should wait for.
    var interest: Interest {
        let read = !closed && !closing && !inputEnded && !hasWaitingCalls && pendingOutputCount < outputHighWater
            && framer.bufferedByteCount <= framer.maximumMessageSize
        return Interest(read: read, write: !closed && pendingOutputCount > 0)
    }

    /// Bytes read from the socket; processes the calls this turn allows.
    func receive(_ bytes: UnsafeRawBufferPointer) {
        guard !closed, !closing else { return }
        framer.append(bytes)
        process()
        if budget.isExceeded && heldByteCount > BufferBudget.shareAtRisk {
            drop(.bufferFull(.daemonBudget, limit: budget.limit))
        }
    }

    /// Bytes read from the socket; processes every complete call it can.
    func receive(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { receive($0) }
    }

    /// The peer closed its writing half (read returned 0).
    func receiveEnd() {
        guard !closed else { return }
        inputEnded = true
        process()
    }

    /// Starts the connection's next turn: the calls waiting for it are dispatched, as many as a turn allows.
    func newTurn() {
        callAllowance = Self.callsPerTurn
        hasWaitingCalls = false
        process()
    }

    /// The output bytes not written yet; pass how many were written to `didWrite`.
    func withPendingOutput<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        output.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[outputStart...])) }
    }

    /// `count` bytes of the pending output reached the socket.
    func didWrite(_ count: Int) {
        guard count > 0, !closed else { return }
        outputStart += count
        outputEndsInsideMessage = output[outputStart - 1] != 0
        if outputStart >= output.count {
            output = []
            outputStart = 0
            if closing { finishClose() }
        } else if outputStart >= 64 * 1024 && outputStart * 2 >= output.count {
            output.removeSubrange(0..<outputStart)
            outputStart = 0
        }
        process()
    }

    /// Closes at once: the socket failed, the peer vanished, or the server stops. Open calls see `onClose`.
    func abort() {
        guard !closed else { return }
        finishClose()
    }

    /// Ends an open stream with the declared error `DaemonStopping` and closes once that is written; used when the
    /// daemon stops. (An empty final reply would break the method's declared reply type.)
    func endForShutdown() {
        guard !closed else { return }
        if let call = activeCall, call.wantsMore, call.isOpen {
            call.fail(.daemonStopping())
        }
        closing = true
        if pendingOutputCount == 0 { finishClose() }
    }

    /// Drops the connection for `error`: what is queued and not yet written is discarded, save the rest of a message
    /// already partly written (so the client's stream stays in step), and `error` is the last reply. The server writes
    /// what the socket takes of that at once, without waiting for the client, and closes it. An open call sees
    /// `onClose`.
    func drop(_ error: ControlError) {
        guard !closed, !dropped else { return }
        dropped = true
        closing = true
        hasWaitingCalls = false
        var kept: [UInt8] = []
        if outputEndsInsideMessage, let end = output[outputStart...].firstIndex(of: 0) {
            kept = Array(output[outputStart...end])
        }
        output = kept
        outputStart = 0
        append(VarlinkReply(error: error))
        framer = VarlinkFramer(maximumMessageSize: framer.maximumMessageSize)
        account()
        let call = activeCall
        activeCall = nil
        call?.connectionClosed()
        delegate?.connectionNeedsService(self)
    }

    private func finishClose() {
        closed = true
        closing = true
        hasWaitingCalls = false
        output = []
        outputStart = 0
        framer = VarlinkFramer(maximumMessageSize: framer.maximumMessageSize)
        account()
        let call = activeCall
        activeCall = nil
        call?.connectionClosed()
    }

    /// Brings the budget's count of this connection's bytes up to date.
    private func account() {
        let held = closed ? 0 : heldByteCount
        if held != accounted {
            budget.change(by: held - accounted)
            accounted = held
        }
    }

    /// Dispatches complete calls while no call is pending, output is below the high-water mark and the turn allows.
    func process() {
        guard !processing else { return }
        processing = true
        defer {
            processing = false
            account()
        }
        // Whether every whole message received was dispatched: only then is what is left the start of one.
        var drained = false
        while !closed, !closing, activeCall == nil, pendingOutputCount < outputHighWater {
            guard callAllowance > 0 else {
                guard framer.bufferedByteCount == 0 else {
                    hasWaitingCalls = true
                    delegate?.connectionNeedsService(self)
                    return
                }
                drained = true
                break
            }
            let message: [UInt8]?
            do {
                message = try framer.nextMessage()
            } catch {
                reject(.invalidMessage("\(error)"), thenClose: true)
                return
            }
            guard let message else {
                drained = true
                break
            }
            callAllowance -= 1
            messagesTaken &+= 1
            dispatch(message)
        }
        guard !closed, !closing, inputEnded else { return }
        if activeCall?.wantsMore == true {
            // A client that hangs up on a stream has gone away: nobody reads the events any more.
            finishClose()
        } else if activeCall == nil && drained {
            if framer.bufferedByteCount > 0 {
                reject(.invalidMessage("connection closed in the middle of a message"), thenClose: true)
            } else {
                closing = true
                if pendingOutputCount == 0 { finishClose() }
            }
        }
    }

    private func reject(_ error: ControlError, thenClose: Bool) {
        append(VarlinkReply(error: error))
        if thenClose {
            closing = true
            if pendingOutputCount == 0 { finishClose() }
        }
    }

    private func dispatch(_ message: [UInt8]) {
        let request: VarlinkRequest
        switch VarlinkRequest.parse(message) {
        case .success(let decoded): request = decoded
        case .failure(let error):
            reject(error, thenClose: false)
            return
        }
        switch router.route(request) {
        case .respond(let response):
            if !request.isOneway { answer(response) }
        case .handler(let method) where request.isOneway && !method.isPrivileged:
            // A method that changes nothing, called without wanting its reply, has no effect: its work is skipped
            // (a `Kinds` of 10 000 kinds costs the loop milliseconds, and a burst of them cost it seconds).
            break
        case .handler(let method) where method.largestReplyBytes.map { !budget.hasRoom(for: $0) } ?? false:
            // Refused before the handler reads anything: the reply would be queued whole, and a crowd of readers
            // must get refusals rather than the daemon's memory. The connection stays; the client may ask again.
            answer(.error(.bufferFull(.daemonBudget, limit: budget.limit)))
        case .handler(let method):
            let call = VarlinkCall(request: request, method: method, peer: peer, connection: self)
            activeCall = call
            let response = handler?.handle(call, peer: peer) ?? .error(.methodNotImplemented(request.method))
            call.answer(response)
            if request.isOneway && activeCall === call {
                // Nothing will be sent for a oneway call, so later calls need not wait for it.
                activeCall = nil
            }
        }
    }

    private func answer(_ response: VarlinkResponse) {
        switch response {
        case .reply(let parameters): append(VarlinkReply(parameters: parameters))
        case .encoded(let parameters): append(encoded: parameters, continues: false)
        case .message(let bytes): append(message: bytes)
        case .error(let error): append(VarlinkReply(error: error))
        case .pending: break
        }
    }

    /// Queues a reply of `call`; called by `VarlinkCall`.
    func send(_ reply: VarlinkReply, for call: VarlinkCall) {
        guard !closed, !call.request.isOneway else { return }
        append(reply)
        queued(for: call, continues: reply.isContinued)
    }

    /// Queues a reply of `call` whose parameters object is already encoded; called by `VarlinkCall`.
    func send(encoded parameters: [UInt8], continues: Bool, for call: VarlinkCall) {
        guard !closed, !call.request.isOneway else { return }
        append(encoded: parameters, continues: continues)
        queued(for: call, continues: continues)
    }

    /// Queues a final reply of `call` that is a whole message already (`VarlinkResponse.message`).
    func send(message bytes: [UInt8], for call: VarlinkCall) {
        guard !closed, !call.request.isOneway else { return }
        append(message: bytes)
        queued(for: call, continues: false)
    }

    /// Only a stream's replies count against `backlogLimit`: a final reply is bounded by its request (`List` of
    /// 100 000 widgets is ~28 MB) and the call ends with it, while a stream nobody reads grows without end. Past the
    /// budget, a stream holding more than its share is dropped as it grows; final replies are left to the server,
    /// which drops the largest holders at the end of the iteration.
    private func queued(for call: VarlinkCall, continues: Bool) {
        account()
        if continues && pendingOutputCount > backlogLimit {
            drop(.bufferFull(.streamBacklog, limit: backlogLimit))
        } else if continues && budget.isExceeded && heldByteCount > BufferBudget.shareAtRisk {
            drop(.bufferFull(.daemonBudget, limit: budget.limit))
        }
        if !processing { delegate?.connectionNeedsService(self) }
    }

    /// The call ended with its final reply; later calls may go ahead.
    func callEnded(_ call: VarlinkCall) {
        guard activeCall === call else { return }
        activeCall = nil
        if !processing {
            process()
            delegate?.connectionNeedsService(self)
        }
    }

    private func append(_ reply: VarlinkReply) {
        guard let bytes = try? VarlinkCoding.encode(reply) else { return }
        output.append(contentsOf: bytes)
        output.append(0)
    }

    /// A whole message: with nothing else pending, the output takes the message's own buffer instead of a copy.
    private func append(message bytes: [UInt8]) {
        if pendingOutputCount == 0 {
            output = bytes
            outputStart = 0
        } else {
            output.append(contentsOf: bytes)
        }
    }

    /// `{"continues":true,"parameters":…}` or `{"parameters":…}` around an encoded parameters object.
    private func append(encoded parameters: [UInt8], continues: Bool) {
        output.append(contentsOf: (continues ? #"{"continues":true,"parameters":"# : #"{"parameters":"#).utf8)
        output.append(contentsOf: parameters)
        output.append(UInt8(ascii: "}"))
        output.append(0)
    }
}
