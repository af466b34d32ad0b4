import Foundation
import Glibc
import WidgetProtocol
import WidgetSchedulerTestKit

/// A fake daemon on a thread: serves `connections` connections one after the other, answering each call on them
/// with `answer(request)` until the client closes, then stops. `finish()` waits for that and returns every call.
final class FakeDaemon: @unchecked Sendable {
    let path: String
    private var listener: UnixListener?
    private var received: [VarlinkRequest] = []
    private let done = DispatchSemaphore(value: 0)

    init(connections: Int = 1, answer: @escaping @Sendable (VarlinkRequest) -> String) throws {
        let listener = try UnixListener(prefix: "widget-center")
        self.listener = listener
        path = listener.path
        let thread = Thread { [self] in
            for _ in 0..<connections {
                let client = listener.accept()
                guard client >= 0 else { break }
                while let message = Self.readMessage(client) {
                    let request = (try? JSONDecoder().decode(VarlinkRequest.self, from: Data(message)))
                        ?? VarlinkRequest(method: "unreadable")
                    received.append(request)
                    let reply = Array(answer(request).utf8) + [0]
                    _ = reply.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                }
                close(client)
            }
            done.signal()
        }
        thread.start()
    }

    /// One NUL-terminated message, or nil at the end of the connection.
    private static func readMessage(_ descriptor: Int32) -> [UInt8]? {
        var message: [UInt8] = []
        var byte: UInt8 = 0
        while recv(descriptor, &byte, 1, 0) == 1 {
            if byte == 0 { return message }
            message.append(byte)
        }
        return nil
    }

    /// Waits until every connection ended and returns the calls received, in order.
    func finish() -> [VarlinkRequest] {
        done.wait()
        listener = nil
        return received
    }
}

/// A reply carrying `parameters` (JSON object text).
func reply(_ parameters: String) -> String {
    #"{"parameters":\#(parameters)}"#
}

/// An error reply.
func errorReply(_ name: String, _ parameters: String = "{}") -> String {
    #"{"error":"\#(name)","parameters":\#(parameters)}"#
}
