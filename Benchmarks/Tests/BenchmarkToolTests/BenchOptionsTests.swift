import Testing
@testable import daemon_bench

/// A benchmark mode's options: the ones it declares are read, anything else is an error naming it.
@Suite("Benchmark options")
struct BenchOptionsTests {
    @Test func declaredOptionsAreReadAndDefaultsFillTheRest() throws {
        let options = try BenchOptions(["--socket", "/run/x.socket", "--seconds", "2.5"],
                                       accepting: ["socket", "seconds", "batch"])
        #expect(try options.string("socket") == "/run/x.socket")
        #expect(try options.double("seconds", 10) == 2.5)
        #expect(try options.double("batch", 0.05) == 0.05)
    }

    struct BadInput: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let badInputs: [BadInput] = [
        BadInput(arguments: ["--count", "200"], message: "unknown option --count (this mode takes --seconds --socket)"),
        BadInput(arguments: ["--seconds"], message: "expected --name value pairs, got --seconds"),
        BadInput(arguments: ["seconds", "2"], message: "expected --name value pairs, got seconds"),
    ]

    @Test(arguments: badInputs)
    func aBadArgumentIsAnErrorNamingIt(_ input: BadInput) {
        #expect(message { try BenchOptions(ArraySlice(input.arguments), accepting: ["socket", "seconds"]) }
                == input.message)
    }

    @Test func aValueOfTheWrongKindOrAMissingOneIsAnErrorNamingTheOption() throws {
        let options = try BenchOptions(["--seconds", "soon", "--calls", "-3"],
                                       accepting: ["seconds", "calls", "socket"])
        #expect(message { try options.double("seconds", 1) } == "--seconds: expected a number, got soon")
        #expect(message { try options.int("calls", 1) } == "--calls: expected a count, got -3")
        #expect(message { try options.string("socket") } == "--socket is required")
    }

    private func message(_ body: () throws -> Any) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return "\(error)"
        }
    }
}
