import Foundation
import WidgetProtocol

/// One request to one provider: the process to run for it, and the reading of what the process did.
///
/// The child runs the manifest's `exec` in the manifest's directory, with `ProcessSpec.minimalEnvironment` (plus
/// `extraEnvironment`), the manifest's timeout, memory cap and task cap, and the encoded request on stdin.
public struct ProviderInvocation: Sendable {
    /// The provider's manifest.
    public var manifest: ProviderManifest
    /// What is asked.
    public var request: ProviderRequest
    /// Variables added to the minimal environment (they win over it).
    public var extraEnvironment: [String: String]
    /// Seconds between SIGTERM and SIGKILL after a timeout.
    public var grace: Double

    /// Creates an invocation.
    public init(
        manifest: ProviderManifest,
        request: ProviderRequest,
        extraEnvironment: [String: String] = [:],
        grace: Double = 2
    ) {
        self.manifest = manifest
        self.request = request
        self.extraEnvironment = extraEnvironment
        self.grace = grace
    }

    /// The process to run.
    public var processSpec: ProcessSpec {
        ProcessSpec(
            argv: manifest.exec,
            // Without extra variables the shared dictionary itself: the runner's program cache then finds it by
            // identity, where a merged copy is hashed whole on every run.
            environment: extraEnvironment.isEmpty
                ? ProcessSpec.minimalEnvironment
                : ProcessSpec.minimalEnvironment.merging(extraEnvironment) { _, extra in extra },
            workingDirectory: manifest.directory,
            stdin: request.encodedLine(),
            timeout: manifest.timeout,
            grace: grace,
            memoryMax: UInt64(max(0, manifest.memoryMax)),
            tasksMax: manifest.tasksMax,
            writableDirectory: request.context.imageDirectory
        )
    }

    /// Starts the run on `runner`; `completion` gets the interpreted result and the raw process result.
    @discardableResult
    public func start(
        on runner: ProviderRunner, completion: @escaping (ProviderRunResult, ProcessResult) -> Void
    ) -> RunningProcess {
        let kind = request.request
        return runner.start(processSpec) { process in
            completion(Self.result(of: process, answering: kind), process)
        }
    }

    /// Reads a finished run: a process failure as is, else the answer validated strictly (`invalid`, or
    /// `output-too-large` for too many entries, with the decoder's message).
    public func result(of process: ProcessResult) -> ProviderRunResult {
        Self.result(of: process, answering: request.request)
    }

    /// Reads a finished run of a request of kind `kind`.
    public static func result(of process: ProcessResult, answering kind: ProviderRequestKind) -> ProviderRunResult {
        if let failure = process.failure {
            return .failure(
                ProviderRunFailure(reason: failure.reason, detail: failure.detail, stderrTail: process.stderrTail)
            )
        }
        switch ProviderAnswerDecoder.answer(to: kind, from: process.stdout) {
        case .success(let answer):
            return .success(answer, stderrTail: process.stderrTail)
        case .failure(let error):
            return .failure(
                ProviderRunFailure(reason: error.reason, detail: error.description, stderrTail: process.stderrTail)
            )
        }
    }
}
