import Foundation
import Testing
import WidgetProviders

/// A temporary directory tree for one test, removed when the test ends.
private final class ManifestTree {
    let root: String

    init() throws {
        root = NSTemporaryDirectory() + "manifest-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    func write(_ directory: String, _ name: String, _ text: String) throws -> String {
        let folder = root + "/" + directory
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

private func manifest(kind: String, timeout: Int = 30) -> String {
    "exec = \"./provider\"\ntimeout = \(timeout)\n[[widget]]\nkind = \"\(kind)\"\n"
}

@Test("a same-named file in a later directory overrides the earlier one")
func laterDirectoryOverrides() throws {
    let tree = try ManifestTree()
    _ = try tree.write("usr", "weather.toml", manifest(kind: "weather", timeout: 30))
    let override = try tree.write("etc", "weather.toml", manifest(kind: "weather", timeout: 5))
    _ = try tree.write("usr", "clock.toml", manifest(kind: "clock"))
    let set = ManifestLoader.load(directories: [tree.root + "/usr", tree.root + "/etc"])
    #expect(set.errors.isEmpty)
    #expect(set.kinds == ["clock", "weather"])
    #expect(set.manifest(forKind: "weather")?.path == override)
    #expect(set.manifest(forKind: "weather")?.timeout == 5)
    #expect(set.manifest(forKind: "weather")?.exec == [tree.root + "/etc/provider"])
}

@Test("one bad file is reported and the others still load")
func badFileDoesNotStopOthers() throws {
    let tree = try ManifestTree()
    _ = try tree.write("d", "a-clock.toml", manifest(kind: "clock"))
    let badText = "exec = \"./w\"\ntimeout = \"soon\"\n[[widget]]\nkind = \"weather\"\n"
    let bad = try tree.write("d", "b-weather.toml", badText)
    _ = try tree.write("d", "c-shell.toml", manifest(kind: "shell"))
    _ = try tree.write("d", "notes.txt", "not a manifest")
    let set = ManifestLoader.load(directories: [tree.root + "/d"])
    #expect(set.kinds == ["clock", "shell"])
    #expect(set.errors.map(\.description) == [
        "\(bad): \"timeout\": expected a positive number of seconds, at most 253402300799.999, found \"soon\"",
    ])
    #expect(set.manifest(forKind: "weather") == nil)
}

@Test("a kind declared by two files is an error naming both, and the first file keeps it")
func duplicateKindAcrossFiles() throws {
    let tree = try ManifestTree()
    let first = try tree.write("d", "a.toml", manifest(kind: "weather"))
    let second = try tree.write("d", "b.toml", manifest(kind: "weather"))
    let set = ManifestLoader.load(directories: [tree.root + "/d"])
    #expect(set.manifests.map(\.path) == [first])
    #expect(set.errors.map(\.description) == [
        "\(second): \"widget[0].kind\": kind \"weather\" is already served by \(first)",
    ])
}

@Test("a missing directory is skipped; a file given as a directory is an error")
func missingDirectoryIsSkipped() throws {
    let tree = try ManifestTree()
    let file = try tree.write("d", "clock.toml", manifest(kind: "clock"))
    let set = ManifestLoader.load(directories: [tree.root + "/absent", file, tree.root + "/d"])
    #expect(set.kinds == ["clock"])
    #expect(set.errors.map(\.description) == ["\(file): is not a directory"])
}

@Test("the default directories give /etc precedence over /usr/share")
func defaultDirectoriesOrder() {
    #expect(ManifestLoader.defaultDirectories == [
        "/usr/share/widget-scheduler/providers", "/etc/widget-scheduler/providers",
    ])
}
