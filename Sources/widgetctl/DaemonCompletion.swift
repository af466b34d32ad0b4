import ArgumentParser
import Foundation
import WidgetControl
import WidgetProtocol

/// Shell completion from the running daemon: the kinds and widget ids it has, asked when TAB is pressed, on the
/// socket the command line names (or the usual one). Nothing when the daemon cannot be reached within a moment: a
/// completion never hangs the shell or prints into it.
enum DaemonCompletion {
    /// The daemon's kinds.
    static var kinds: CompletionKind {
        .custom { words, _, prefix in
            names(words, prefix) { client throws(ControlClientError) in
                try client.call(KindsMethod.self, NoParameters(), timeout: 2).kinds.map(\.kind)
            }
        }
    }

    /// The daemon's widget ids.
    static var widgets: CompletionKind {
        .custom { words, _, prefix in
            names(words, prefix) { client throws(ControlClientError) in
                try client.call(ListMethod.self, NoParameters(), timeout: 2).widgets.map(\.id)
            }
        }
    }

    /// What `ask` gets from the daemon at the socket `words` name, those starting with `prefix`, sorted.
    static func names(
        _ words: [String], _ prefix: String, _ ask: (ControlClient) throws(ControlClientError) -> [String]
    ) -> [String] {
        let path = ControlClient.socketPath(option: socketOption(in: words),
                                            environment: ProcessInfo.processInfo.environment)
        guard let client = try? ControlClient(path: path), let names = try? ask(client) else { return [] }
        return names.filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// The value of `--socket P` or `--socket=P` among the shell's words, if any.
    static func socketOption(in words: [String]) -> String? {
        for (index, word) in words.enumerated() {
            if word.hasPrefix("--socket=") { return String(word.dropFirst("--socket=".count)) }
            if word == "--socket", index + 1 < words.count { return words[index + 1] }
        }
        return nil
    }
}
