import Foundation

/// The provider side of the protocol: read one request from stdin, answer it on stdout, exit.
///
/// `Widget.main()` and `WidgetBundle.main()` call `run(_:)`, so an `@main` widget or bundle is a complete provider.
public enum ProviderMain {
    /// Reads the request from stdin, dispatches it to the widget serving its kind, writes the answer on stdout and
    /// exits 0; on error, writes a message on stderr and exits with the error's code. Call it from the main thread:
    /// the provider's async code runs there (`MainThreadExecutor`), not on a thread pool.
    public static func run(_ widgets: [StaticConfiguration]) -> Never {
        let input = FileHandle.standardInput.readDataToEndOfFile()
        // The providers are not Sendable, and need not be: every job of the task runs on this thread, one at a time.
        nonisolated(unsafe) let widgets = widgets
        switch MainThreadExecutor.run({ await answer(to: input, widgets: widgets) }) {
        case .success(let output):
            FileHandle.standardOutput.write(output)
            FileHandle.standardOutput.write(Data("\n".utf8))
            exit(0)
        case .failure(let error):
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            exit(error.exitCode)
        }
    }

    /// Answers one request given as JSON bytes, without touching stdin or stdout.
    public static func answer(
        to request: Data,
        widgets: [StaticConfiguration]
    ) async -> Result<Data, ProviderKitError> {
        let message: ProviderRequestMessage
        do {
            message = try JSONDecoder().decode(ProviderRequestMessage.self, from: request)
        } catch {
            return .failure(.invalidRequest(describe(error)))
        }
        guard message.protocol == 1 else { return .failure(.unsupportedProtocol(message.protocol)) }
        if let text = message.context?.now {
            guard let now = ProtocolDate.parse(text), ProtocolDate.supported.contains(now) else {
                return .failure(.invalidRequest("\"context.now\" must be an RFC 3339 date "
                                                + "\(ProtocolDate.supportedDescription), found \"\(text)\""))
            }
        }
        guard let widget = widgets.first(where: { $0.kind == message.kind }) else {
            return .failure(.unknownKind(message.kind, served: widgets.map(\.kind)))
        }
        do {
            return .success(try await widget.answer(message, message.providerContext()))
        } catch let error as ProviderKitError {
            return .failure(error)
        } catch {
            return .failure(.encoding("\(error)"))
        }
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "missing \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "\"\(path)\" has the wrong type"
        case DecodingError.dataCorrupted: return "not JSON"
        default: return "\(error)"
        }
    }
}
