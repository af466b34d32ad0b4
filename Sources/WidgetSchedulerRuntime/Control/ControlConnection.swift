import Foundation
import WidgetProtocol

/// Told when a connection has something to write or was closed by a call, outside the connection's own processing.
protocol ControlConnectionDelegate: AnyObject {
    func connectionNeedsService(_ connection: ControlConnection)
}

/// One client connection as a state machine with no system calls: bytes in (`receive`, `receiveEnd`), calls
/// dispatched in order, reply bytes out (`pendingOutput`, `didWrite`). The server moves bytes between it and the
/// socket; tests drive it directly.
///
/// Calls are answered in order: while a call is pending or streaming, later requests wait in the framer. Output
/// above `outputHighWater` pauses request processing and reading (backpressure); a stream whose client lets output
/// pile up beyond `outputLimit` gets its connection dropped.
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
    private var processing = false
    let outputHighWater: Int
    let outputLimit: Int

    init(
        id: Int, peer: PeerCredentials, router: ControlRouter, handler: ControlHandler?,
        maximumMessageSize: Int = ControlInterface.maximumMessageSize,
        outputHighWater: Int = 1 << 20, outputLimit: Int = 16 << 20
    ) {
        self.id = id
        self.peer = peer
        self.router = router
        self.handler = handler
        self.framer = VarlinkFramer(maximumMessageSize: maximumMessageSize)
        self.outputHighWater = outputHighWater
        self.outputLimit = outputLimit
    }

    /// Bytes waiting to be written.
    var pendingOutputCount: Int { output.count - outputStart }

    /// Which readiness the server should wait for.
    var interest: Interest {
        let read = !closed && !closing && !inputEnded && pendingOutputCount < outputHighWater
            && framer.bufferedByteCount <= framer.maximumMessageSize
        return Interest(read: read, write: !closed && pendingOutputCount > 0)
    }

    /// Bytes read from the socket; processes every complete call it can.
    func receive(_ bytes: UnsafeRawBufferPointer) {
        guard !closed, !closing else { return }
        framer.append(bytes)
        process()
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

    /// The output bytes not written yet; pass how many were written to `didWrite`.
    func withPendingOutput<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        output.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[outputStart...])) }
    }

    /// `count` bytes of the pending output reached the socket.
    func didWrite(_ count: Int) {
        outputStart += count
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

    /// Ends an open stream with a final empty reply and closes once that is written; used when the daemon stops.
    func endForShutdown() {
        guard !closed else { return }
        if let call = activeCall, call.wantsMore, call.isOpen {
            call.reply([:])
        }
        closing = true
        if pendingOutputCount == 0 { finishClose() }
    }

    private func finishClose() {
        closed = true
        closing = true
        output = []
        outputStart = 0
        let call = activeCall
        activeCall = nil
        call?.connectionClosed()
    }

    /// Dispatches every complete call while no call is pending and output is below the high-water mark.
    func process() {
        guard !processing else { return }
        processing = true
        defer { processing = false }
        while !closed, !closing, activeCall == nil, pendingOutputCount < outputHighWater {
            let message: [UInt8]?
            do {
                message = try framer.nextMessage()
            } catch {
                reject(.invalidMessage("\(error)"), thenClose: true)
                return
            }
            guard let message else { break }
            dispatch(message)
        }
        guard !closed, !closing, inputEnded else { return }
        if activeCall?.wantsMore == true {
            // A client that hangs up on a stream has gone away: nobody reads the events any more.
            finishClose()
        } else if activeCall == nil {
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
        case .handler(let method):
            let call = VarlinkCall(request: request, method: method, peer: peer, connection: self)
            activeCall = call
            let response = handler?.handle(call, peer: peer) ?? .error(.methodNotImplemented(request.method))
            switch response {
            case .reply(let parameters): call.reply(parameters)
            case .encoded(let parameters): call.reply(encoded: parameters)
            case .message(let bytes): call.reply(message: bytes)
            case .error(let error): call.fail(error)
            case .pending: break
            }
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

    /// Only a stream's replies count against `outputLimit`: a final reply is bounded by its request (`List` of
    /// 100 000 widgets is ~28 MB) and the call ends with it, while a stream nobody reads grows without end.
    private func queued(for call: VarlinkCall, continues: Bool) {
        if continues && pendingOutputCount > outputLimit {
            finishClose()
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
