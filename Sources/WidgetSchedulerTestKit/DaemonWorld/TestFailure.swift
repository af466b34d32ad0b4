import Foundation

/// A failure of the test machinery itself (a daemon that does not start, a deadline passed), said in words.
public struct TestFailure: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Polls `body` every `interval` seconds until it returns a value, or throws once `timeout` seconds have passed: how
/// a test waits for the event it relies on, never sleeping and hoping.
public func eventually<Value>(
    _ what: @autoclosure () -> String, timeout: Double = 20, interval: Double = 0.02, _ body: () throws -> Value?
) throws -> Value {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if let value = try body() { return value }
        guard Date() < deadline else { throw TestFailure("waited \(timeout) s for \(what())") }
        Thread.sleep(forTimeInterval: interval)
    }
}
