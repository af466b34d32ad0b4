import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerTestKit

/// A provider that writes images as its kind says: `good` a 1×1 PNG its entry names and a file no entry names,
/// `bad` an SVG its entry names, `plain` nothing. Its options name the image directory it was given.
private let imageProvider = #"""
    #!/usr/bin/python3
    import base64, json, os, sys
    request = json.load(sys.stdin)
    directory = request["context"].get("imageDirectory")
    if request["request"] == "options":
        print(json.dumps({"options": [{"value": "x", "title": str(directory)}]}))
        sys.exit(0)
    def write(name, data):
        with open(os.path.join(directory, name), "wb") as file:
            file.write(data)
    content = {"text": "plain"}
    if request["kind"] == "good":
        write("dot.png", base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAW"
                                          "jR9awAAAABJRU5ErkJggg=="))
        write("left.txt", b"no entry names me")
        content = {"photo": "dot.png"}
    elif request["kind"] == "bad":
        write("x.svg", b"<svg xmlns='http://www.w3.org/2000/svg'/>")
        content = {"photo": "x.svg"}
    entry = {"date": request["context"]["now"], "content": content}
    print(json.dumps({"entry": entry} if request["request"] == "snapshot" else {"entries": [entry], "policy": "never"}))
    """#

private let imageManifest = #"""
    exec = ["./images.py"]
    images = true

    [[widget]]
    kind = "good"
    [widget.parameters.p]
    type = "string"
    options = "dynamic"

    [[widget]]
    kind = "bad"

    [[widget]]
    kind = "plain"
    """#

/// `widget-scheduler run-provider` gives timeline and snapshot requests an image directory, as the daemon does, and
/// checks what the entries name as the daemon checks it; the directory is kept when the provider wrote anything.
@Suite("run-provider's image directory")
struct RunProviderImageTests {
    /// A scratch directory with the provider, and `tmp/`, the commands' `TMPDIR`.
    final class Scratch {
        let root: URL
        var temporary: URL { root.appendingPathComponent("tmp") }
        var manifest: String { root.appendingPathComponent("images.toml").path }

        init() throws {
            root = FileManager.default.temporaryDirectory
                .appendingPathComponent("run-provider-images-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            try imageProvider.write(to: root.appendingPathComponent("images.py"), atomically: true, encoding: .utf8)
            chmod(root.appendingPathComponent("images.py").path, 0o755)
            try imageManifest.write(toFile: manifest, atomically: true, encoding: .utf8)
        }

        deinit {
            try? FileManager.default.removeItem(at: root)
        }

        func runProvider(_ arguments: String...) throws -> CommandResult {
            try RunningCommand([try BuiltProducts.executable("widget-scheduler"), "run-provider", manifest]
                               + arguments,
                               environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TMPDIR": temporary.path],
                               scratch: root).wait(timeout: 60)
        }

        /// The run directories left in `TMPDIR`.
        func kept() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: temporary.path).sorted()
        }
    }

    @Test("the images an entry names are listed with it and kept; a file no entry names is said to be dropped")
    func namedImagesAreCheckedListedAndKept() throws {
        let scratch = try Scratch()
        let result = try scratch.runProvider("--kind", "good")
        #expect(result.status == 0, "\(result)")
        let kept = try #require(try scratch.kept().first, "no directory kept: \(result)")
        let directory = scratch.temporary.appendingPathComponent(kept).appendingPathComponent("images")
        #expect(kept.hasPrefix("run-provider."))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["dot.png", "left.txt"])
        let sum = try RunningCommand(["/usr/bin/sha256sum", directory.appendingPathComponent("dot.png").path],
                                     environment: [:], scratch: scratch.root).wait()
        let sha256 = String(sum.standardOutput.prefix(64))
        #expect(result.standardOutput.contains("\n    image \"dot.png\": image/png 1×1, 70 bytes, sha256 \(sha256)\n"),
                "\(result)")
        #expect(result.standardError.hasSuffix("images: kept in \(directory.path) (2 files); no entry names "
                                               + "\"left.txt\": the daemon drops it\n"), "\(result)")

        let json = try scratch.runProvider("--kind", "good", "--request", "snapshot", "--json")
        #expect(json.status == 0, "\(json)")
        let images = try json.json().objectValue?["entry"]?.objectValue?["images"]
        #expect(images == .object(["dot.png": .object([
            "byteCount": .integer(70), "contentType": .string("image/png"), "height": .integer(1),
            "sha256": .string(sha256), "width": .integer(1),
        ])]), "\(json)")
    }

    @Test("an image the daemon would refuse fails the run in the daemon's words, and is kept to look at")
    func aRefusedImageFailsTheRun() throws {
        let scratch = try Scratch()
        let result = try scratch.runProvider("--kind", "bad")
        #expect(result.status == 1, "\(result)")
        #expect(result.standardOutput == "")
        #expect(result.standardError.contains(#"widget-scheduler: bad: invalid: entry 0 ("#), "\(result)")
        #expect(result.standardError.contains(
            #"): image "x.svg" is SVG (which can carry script), not a PNG, JPEG or WebP image"#), "\(result)")
        let kept = try #require(try scratch.kept().first, "no directory kept: \(result)")
        #expect(result.standardError.hasSuffix("images: kept in \(scratch.temporary.path)/\(kept)/images (1 file)\n"),
                "\(result)")
    }

    @Test("a run that writes no image leaves nothing behind, and other requests get no directory")
    func nothingIsLeftWithoutImages() throws {
        let scratch = try Scratch()
        let result = try scratch.runProvider("--kind", "plain")
        #expect(result.status == 0, "\(result)")
        #expect(!result.standardError.contains("images:"), "\(result)")
        #expect(try scratch.kept() == [])

        let options = try scratch.runProvider("--kind", "good", "--request", "options", "--parameter", "p")
        #expect(options.status == 0, "\(options)")
        #expect(options.standardOutput.contains(#""x"  None"#), "\(options)")
        #expect(try scratch.kept() == [])
    }
}
