import ArgumentParser
import Foundation
import WidgetProtocol
import WidgetProviders

/// `widget-scheduler run-provider MANIFEST --kind K ...`: one request through the real runner, without a daemon.
struct RunProviderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run-provider",
        abstract: "Run one request of a provider through the real runner and print its validated answer.",
        discussion: """
            The provider author's preview: the provider runs exactly as the daemon runs it (own process group, \
            minimal environment, the manifest's timeout and memory cap, and the daemon's default sandbox: writing \
            only beneath /tmp, /var/tmp and /dev), and its answer is validated strictly. A timeline or snapshot \
            request gets a fresh image directory, as under the daemon: the images its entries name are checked as \
            the daemon checks them and listed with their entries, and the directory is kept for you to look at \
            when the provider wrote anything in it (its path is printed on stderr). On failure \
            the reason (exit, signal, timeout, memory, invalid, output-too-large, spawn) and the provider's stderr \
            are printed, and the exit status is 1. The protocol is described in docs/provider-protocol.md.
            """
    )

    @Argument(help: "The provider's manifest (TOML).", completion: .file(extensions: ["toml"]))
    var manifest: String

    @Option(help: "The widget kind to ask for, as the manifest names it.")
    var kind: String

    @Option(help: "The request: timeline, snapshot, placeholder, defaults or options.")
    var request = "timeline"

    @Option(help: "The widget family (default: the kind's first family).")
    var family: String?

    @Option(name: .customLong("param"), help: "A configuration value, NAME=VALUE, typed as the manifest declares.")
    var parameters: [String] = []

    @Option(help: "For an options request: the parameter whose options are asked for.")
    var parameter: String?

    @Option(help: "For an options request: the search text.")
    var search: String?

    @Option(help: "The group's shared data directory passed to the provider as context.dataDirectory.")
    var dataDirectory: String?

    @Flag(help: "Print the validated answer as JSON.")
    var json = false

    @Flag(help: "Run the provider without the daemon's Landlock sandbox (as with provider-sandbox = false).")
    var noSandbox = false

    func run() throws {
        let providerManifest: ProviderManifest
        switch ManifestLoader.load(file: manifest) {
        case .success(let loaded):
            providerManifest = loaded
        case .failure(let errors):
            FileHandle.standardError.write(Data("widget-scheduler: \(errors)\n".utf8))
            throw ExitCode(65)
        }
        var providerRequest = try makeRequest(for: providerManifest)
        var images: PreviewImageDirectory?
        if providerManifest.savesImages, providerRequest.request == .timeline || providerRequest.request == .snapshot {
            do {
                images = try PreviewImageDirectory.make()
            } catch {
                printStderr("widget-scheduler: running the provider without an image directory: \(error)")
            }
            providerRequest.context.imageDirectory = images?.path
        }
        let invocation = ProviderInvocation(manifest: providerManifest, request: providerRequest)

        let loop = PollEventLoop()
        var sandbox: ProviderSandbox?
        if !noSandbox {
            do {
                sandbox = try ProviderSandbox(writablePaths: ProviderSandbox.defaultWritablePaths,
                                              runRoot: images?.root)
            } catch {
                printStderr("widget-scheduler: running the provider without the sandbox: \(error)")
            }
        }
        let runner = ProviderRunner(loop: loop, sandbox: sandbox)
        // This process starts nothing but the provider: what the provider leaves behind dies with its run, as under
        // the daemon.
        do {
            try runner.adoptOrphans()
        } catch {
            printStderr("widget-scheduler: what the provider orphans may outlive its run: \(error)")
        }
        // Only inside a cgroup delegated to this command (systemd-run --scope -p Delegate=yes): as under the daemon.
        runner.useCgroups(try? RunCgroups.delegated())
        var outcome: (result: ProviderRunResult, process: ProcessResult)?
        invocation.start(on: runner) { outcome = ($0, $1) }
        loop.run { outcome != nil }
        guard let outcome else { throw ExitCode.failure }

        var result = outcome.result
        var kept: String?
        if let images {
            let taken = images.take(result)
            result = taken.result
            kept = images.finish(unnamed: taken.unnamed)
        }
        // Said last, after the answer or the failure, where the eye ends.
        defer { if let kept { printStderr(kept) } }
        let tail = result.stderrTail
        switch result {
        case .success(let answer, _):
            if !tail.isEmpty { printStderr("provider stderr:\n" + indented(tail)) }
            if json {
                print(ProviderAnswerFormatter.json(answer))
            } else {
                print(ProviderAnswerFormatter.text(answer), terminator: "")
                print(summary(of: outcome.process))
            }
        case .failure(let failure):
            printStderr("widget-scheduler: \(kind): \(failure.reason): \(failure.detail)")
            printStderr(tail.isEmpty ? "provider stderr: (empty)" : "provider stderr:\n" + indented(tail))
            if !json { printStderr(summary(of: outcome.process)) }
            throw ExitCode.failure
        }
    }

    private func makeRequest(for manifest: ProviderManifest) throws -> ProviderRequest {
        guard let requestKind = ProviderRequestKind(rawValue: request) else {
            let names = ProviderRequestKind.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--request \(request): expected one of \(names)")
        }
        guard let widgetKind = manifest.widget(kind: kind) else {
            let kinds = manifest.widgets.map(\.kind).joined(separator: ", ")
            throw ValidationError("--kind \(kind): \(manifest.path) serves no such kind (it serves: \(kinds))")
        }
        let chosenFamily = family ?? widgetKind.families.first ?? "systemSmall"
        guard widgetKind.families.contains(chosenFamily) else {
            let families = widgetKind.families.joined(separator: ", ")
            throw ValidationError("--family \(chosenFamily): kind \(kind) supports \(families)")
        }
        var configuration = widgetKind.defaultConfiguration
        for assignment in parameters {
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw ValidationError("--param \(assignment): expected NAME=VALUE")
            }
            let name = String(assignment[..<equals])
            let text = String(assignment[assignment.index(after: equals)...])
            guard let spec = widgetKind.parameter(named: name) else {
                let declared = widgetKind.parameters.map(\.name).joined(separator: ", ")
                throw ValidationError(
                    "--param \(name): kind \(kind) declares no such parameter (declared: \(declared))"
                )
            }
            switch spec.parse(text) {
            case .success(let value): configuration[name] = value
            case .failure(let error): throw ValidationError("--param \(assignment): \(error)")
            }
        }
        if requestKind == .options {
            guard let parameter else { throw ValidationError("--request options needs --parameter NAME") }
            guard widgetKind.parameter(named: parameter) != nil else {
                throw ValidationError("--parameter \(parameter): kind \(kind) declares no such parameter")
            }
        }
        return ProviderRequest(
            request: requestKind,
            kind: kind,
            widget: ProviderRequest.Widget(id: "preview", family: chosenFamily, configuration: configuration),
            parameter: parameter,
            search: search,
            context: ProviderRequest.Context(
                now: Date(), isPreview: true, reason: requestKind == .timeline ? .foreground : nil,
                dataDirectory: dataDirectory
            )
        )
    }

    private func summary(of process: ProcessResult) -> String {
        var text = String(format: "ran in %.1f ms (pid %d", process.duration * 1000, process.pid)
        if let peak = process.peakMemoryBytes {
            let whose = process.limits.capsWholeRun ? "peak memory of the run" : "peak RSS"
            text += ", \(whose) " + String(format: "%.1f MiB", Double(peak) / 1_048_576)
        }
        return text + "); limits: \(process.limits)"
    }

    private func indented(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return (lines.last == "" ? lines.dropLast() : lines[...]).map { "  " + $0 }.joined(separator: "\n")
    }

    private func printStderr(_ text: String) {
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }
}
