import Foundation
import Glibc
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerRuntime

/// The image directory `run-provider` gives a timeline or snapshot request, as the daemon gives each run one: a fresh,
/// empty `images/` in a new temporary directory (under `$TMPDIR`, else /tmp) that is the sandbox's run root, so the
/// provider may write there whatever `TMPDIR` is. What it wrote is read and checked as the daemon does (`RunImages`).
/// The directory is kept when the provider wrote anything, for its author to look at the pictures, and removed when
/// it is empty.
struct PreviewImageDirectory {
    /// The temporary directory, `run-provider.XXXXXX`.
    let root: String

    /// The run's image directory, the request's `context.imageDirectory`.
    var path: String { root + "/images" }

    /// Makes the directories (0700), or says why not.
    static func make() throws -> PreviewImageDirectory {
        var base = ProcessInfo.processInfo.environment["TMPDIR"] ?? ""
        if !base.hasPrefix("/") { base = "/tmp" }
        while base.count > 1, base.hasSuffix("/") { base.removeLast() }
        var template = Array((base + "/run-provider.XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw Failure(what: "cannot make a temporary directory in \(base)", errno: errno)
        }
        let made = PreviewImageDirectory(
            root: String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
        guard mkdir(made.path, 0o700) == 0 else {
            let code = errno
            rmdir(made.root)
            throw Failure(what: "cannot make \(made.path)", errno: code)
        }
        return made
    }

    /// Takes the images of `result` from the directory as the daemon would: the result with the entries' `images`,
    /// or a failure `invalid` naming the entry and the file.
    func take(_ result: ProviderRunResult) -> RunImages {
        // Only the store's reading of a run's directory is used: nothing is stored.
        let root = URL(fileURLWithPath: root)
        return RunImages.take(result, from: path, files: ImageStore(stateDirectory: root, runtimeDirectory: root))
    }

    /// Removes the directory if the provider wrote nothing in it; otherwise keeps it and returns what to tell the
    /// provider's author: where the files are, and those no entry names, which the daemon drops.
    func finish(unnamed: [String]) -> String? {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        guard !files.isEmpty else {
            rmdir(path)
            rmdir(root)
            return nil
        }
        var text = "images: kept in \(path) (\(files.count == 1 ? "1 file" : "\(files.count) files"))"
        if !unnamed.isEmpty {
            text += "; no entry names " + unnamed.map { JSONValue.string($0).jsonText() }.joined(separator: ", ")
                + ": the daemon drops \(unnamed.count == 1 ? "it" : "them")"
        }
        return text
    }

    /// A directory that could not be made: what, and the system's reason.
    struct Failure: Error, CustomStringConvertible {
        var what: String
        var errno: Int32

        var description: String { "\(what): \(String(cString: strerror(errno)))" }
    }
}
