import Foundation
import WidgetProtocol

/// What a finished command left: its exit status and its output, decodable as the `--json` contracts say.
public struct CommandResult: CustomStringConvertible {
    public var command: [String]
    public var status: Int32
    public var standardOutput: String
    public var standardError: String
    /// The command did not end within its deadline and was killed.
    public var timedOut = false

    public var description: String {
        "`\(command.joined(separator: " "))` exited \(status)\(timedOut ? " (killed after its deadline)" : "")\n"
            + "stdout: \(standardOutput)\nstderr: \(standardError)"
    }

    /// Standard output decoded as `type`, with the control wire's RFC 3339 dates.
    public func decoded<Value: Decodable>(_ type: Value.Type) throws -> Value {
        do {
            return try VarlinkCoding.makeDecoder().decode(type, from: Data(standardOutput.utf8))
        } catch {
            throw TestFailure("cannot decode \(type) from \(self): \(error)")
        }
    }

    /// Standard output as a JSON value, for checks of a document's shape.
    public func json() throws -> JSONValue {
        guard let value = JSONValue(jsonText: standardOutput) else {
            throw TestFailure("not JSON: \(self)")
        }
        return value
    }
}
