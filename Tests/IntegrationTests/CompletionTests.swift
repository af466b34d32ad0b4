import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerTestKit

/// The shell completions `scripts/install.sh` installs, as the built tools write them: every command and every
/// option the tool has (its `--experimental-dump-help`) is offered in bash (by running bash's own completion
/// function), zsh and fish; and kinds and widget ids come from the running daemon.
@Suite("Shell completions")
struct CompletionTests {
    @Test("bash offers every subcommand and every option of every command",
          arguments: ["widgetctl", "widget-scheduler"])
    func bashOffersEverything(tool: String) throws {
        let scratch = try Scratch()
        let tree = try CommandTree.of(tool)
        try scratch.saveCompletionScript(tool, shell: "bash")
        for command in tree.commands {
            let path = command.path.dropFirst()
            let offered = try scratch.bashCompletion([tool] + path + ["-"])
            for option in command.options {
                #expect(offered.contains(option), "bash: \(command.name) -<TAB> lacks \(option): \(offered)")
            }
            guard !command.subcommands.isEmpty else { continue }
            let subcommands = try scratch.bashCompletion([tool] + path + [""])
            for subcommand in command.subcommands {
                #expect(subcommands.contains(subcommand), "bash: \(command.name) <TAB> lacks \(subcommand)")
            }
        }
    }

    @Test("zsh and fish scripts hold every subcommand and every option of every command",
          arguments: ["widgetctl", "widget-scheduler"])
    func zshAndFishHoldEverything(tool: String) throws {
        let scratch = try Scratch()
        let tree = try CommandTree.of(tool)
        let zsh = try scratch.saveCompletionScript(tool, shell: "zsh")
        let fish = try scratch.saveCompletionScript(tool, shell: "fish").split(separator: "\n").map(String.init)
        for command in tree.commands {
            // zsh: one function per command, `_widgetctl_data_set`, listing its options and its subcommands.
            let function = "_" + command.path.joined(separator: "_") + "() {\n"
            let body = try #require(zsh.range(of: function).map { zsh[$0.upperBound...] }
                .map { $0[..<($0.range(of: "\n}\n")?.lowerBound ?? $0.endIndex)] }, "zsh: no \(function)")
            for option in command.options {
                #expect(body.contains(option), "zsh: \(function) lacks \(option)")
            }
            for subcommand in command.subcommands {
                #expect(body.contains("'\(subcommand):"), "zsh: \(function) lacks \(subcommand)")
            }
            // fish: one line per option, under a condition naming the command's path.
            let condition = "\"\(command.path.joined(separator: " "))\""
            let lines = fish.filter { $0.contains(condition) }
            for option in command.options {
                let flag = option.hasPrefix("--") ? "-l '\(option.dropFirst(2))'" : "-s '\(option.dropFirst())'"
                #expect(lines.contains { $0.contains(flag) }, "fish: \(command.name) lacks \(option)")
            }
            for subcommand in command.subcommands {
                #expect(lines.contains { $0.contains("-fa '\(subcommand)'") },
                        "fish: \(command.name) lacks \(subcommand)")
            }
        }
    }

    @Test("kinds and widget ids are completed from the daemon on the line's socket, and nothing when it is down")
    func kindsAndWidgetsComeFromTheDaemon() throws {
        let world = try DaemonWorld()
        try world.addScriptedKind("weather")
        try world.addScriptedKind("clock")
        try world.start()
        let first = try world.add("weather")
        let second = try world.add("clock")
        let scratch = try Scratch()
        try scratch.saveCompletionScript("widgetctl", shell: "bash")
        let socket = ["--socket", world.socketPath]

        #expect(try scratch.bashCompletion(["widgetctl", "reload"] + socket + ["--kind", ""]) == ["clock", "weather"])
        #expect(try scratch.bashCompletion(["widgetctl", "add"] + socket + ["--kind", "w"]) == ["weather"])
        #expect(try scratch.bashCompletion(["widgetctl", "reload"] + socket + [""]) == [first, second].sorted())
        #expect(try scratch.bashCompletion(["widgetctl", "timeline"] + socket + [""]) == [first, second].sorted())
        #expect(try scratch.bashCompletion(["widgetctl", "show", "--family", "accessoryR"]) == ["accessoryRectangular"])

        world.stopDaemon()
        let quiet = try scratch.bashCompletionResult(["widgetctl", "reload"] + socket + ["--kind", ""])
        #expect(quiet.offered.isEmpty, "\(quiet.offered)")
        #expect(quiet.standardError.isEmpty, "a completion printed into the shell: \(quiet.standardError)")
    }
}

/// A tool's commands as its `--experimental-dump-help` describes them.
private struct CommandTree {
    struct Command {
        /// The command's words from the tool's name: `["widgetctl", "data", "set"]`.
        var path: [String]
        /// Every shown option and flag name, `--json`, `-h`.
        var options: [String]
        var subcommands: [String]

        var name: String { path.joined(separator: " ") }
    }

    var commands: [Command]

    static func of(_ tool: String) throws -> CommandTree {
        let result = try RunningCommand([try BuiltProducts.executable(tool), "--experimental-dump-help"],
                                        environment: ["PATH": "/usr/bin:/bin"], scratch: FileManager.default
                                            .temporaryDirectory).wait()
        guard result.status == 0, let root = try result.json().objectValue?["command"] else {
            throw TestFailure("no command tree: \(result)")
        }
        var commands: [Command] = []
        func walk(_ command: JSONValue, _ parent: [String]) {
            guard let object = command.objectValue, let name = object["commandName"]?.stringValue else { return }
            let path = parent + [name]
            let shown = items(object["subcommands"]).filter { $0.objectValue?["shouldDisplay"] != .bool(false) }
            var options: [String] = []
            for argument in items(object["arguments"]) {
                guard let argument = argument.objectValue, argument["shouldDisplay"] != .bool(false),
                      argument["kind"]?.stringValue != "positional" else { continue }
                for name in items(argument["names"]) {
                    guard let name = name.objectValue, let text = name["name"]?.stringValue else { continue }
                    options.append(name["kind"]?.stringValue == "short" ? "-" + text : "--" + text)
                }
            }
            commands.append(Command(path: path, options: options,
                                    subcommands: shown.compactMap { $0.objectValue?["commandName"]?.stringValue }))
            for subcommand in shown { walk(subcommand, path) }
        }
        walk(root, [])
        guard commands.count > 1 else { throw TestFailure("\(tool) describes no subcommands: \(result)") }
        return CommandTree(commands: commands)
    }

    private static func items(_ value: JSONValue?) -> [JSONValue] {
        if case .array(let items)? = value { return items }
        return []
    }
}

/// A scratch directory to run the tools and bash in.
private struct Scratch {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("completion-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// The environment of a shell where the built tools are on PATH, as installed ones would be.
    var environment: [String: String] {
        let bin = (try? BuiltProducts.directory.get().path) ?? ""
        return ["PATH": "\(bin):/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": directory.path]
    }

    /// The completion script `tool --generate-completion-script shell` writes, saved under the scratch directory.
    @discardableResult
    func saveCompletionScript(_ tool: String, shell: String) throws -> String {
        let result = try RunningCommand([try BuiltProducts.executable(tool), "--generate-completion-script", shell],
                                        environment: environment, scratch: directory).wait()
        guard result.status == 0, !result.standardOutput.isEmpty else {
            throw TestFailure("no \(shell) completion script: \(result)")
        }
        try result.standardOutput.write(to: directory.appendingPathComponent("\(tool).\(shell)"), atomically: true,
                                        encoding: .utf8)
        return result.standardOutput
    }

    /// What bash's completion function offers with the cursor at the end of `words`' last word.
    func bashCompletion(_ words: [String]) throws -> [String] {
        try bashCompletionResult(words).offered
    }

    /// Runs the function the saved bash script of `words[0]` registers with `complete -F`, as bash would on TAB,
    /// and reads COMPREPLY.
    func bashCompletionResult(_ words: [String]) throws -> (offered: [String], standardError: String) {
        let tool = words[0]
        let driver = """
            shopt -s extglob
            source "$1"
            function=$(complete -p \(tool) | sed -E 's/.*-F ([^ ]+).*/\\1/')
            shift
            COMP_WORDS=("$@")
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMP_LINE="${COMP_WORDS[*]}"
            COMP_POINT=${#COMP_LINE}
            COMPREPLY=()
            "$function" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let scriptPath = directory.appendingPathComponent("\(tool).bash").path
        let result = try RunningCommand(["/bin/bash", "-c", driver, "bash", scriptPath] + words,
                                        environment: environment, scratch: directory).wait(timeout: 30)
        guard result.status == 0 else { throw TestFailure("bash completion failed: \(result)") }
        let offered = result.standardOutput.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        return (offered, result.standardError)
    }
}
