import Foundation
import WidgetProtocol

/// What a finished command left: its exit status and its output, decodable as the `--json` contracts say.
struct CommandResult: CustomStringConvertible {
    var command: [String]
    var status: Int32
    var standardOutput: String
    var standardError: String
    /// The command did not end within its deadline and was killed.
    var timedOut = false

    var description: String {
        "`\(command.joined(separator: " "))` exited \(status)\(timedOut ? " (killed after its deadline)" : "")\n"
            + "stdout: \(standardOutput)\nstderr: \(standardError)"
    }

    /// Standard output decoded as `type`, with the control wire's RFC 3339 dates.
    func decoded<Value: Decodable>(_ type: Value.Type) throws -> Value {
        do {
            return try VarlinkCoding.makeDecoder().decode(type, from: Data(standardOutput.utf8))
        } catch {
            throw IntegrationFailure("cannot decode \(type) from \(self): \(error)")
        }
    }

    /// Standard output as a JSON value, for checks of a document's shape.
    func json() throws -> JSONValue {
        guard let value = JSONValue(jsonText: standardOutput) else {
            throw IntegrationFailure("not JSON: \(self)")
        }
        return value
    }
}

/// A failure of the test machinery itself (a daemon that does not start, a deadline passed), said in words.
struct IntegrationFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Polls `body` every `interval` seconds until it returns a value, or throws once `timeout` seconds have passed.
func eventually<Value>(
    _ what: @autoclosure () -> String, timeout: Double = 10, interval: Double = 0.02, _ body: () throws -> Value?
) throws -> Value {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if let value = try body() { return value }
        guard Date() < deadline else { throw IntegrationFailure("waited \(timeout) s for \(what())") }
        Thread.sleep(forTimeInterval: interval)
    }
}
