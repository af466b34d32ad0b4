import Foundation
import Glibc
import Testing
import WidgetProtocol
@testable import WidgetSchedulerRuntime
import WidgetSchedulerTestKit

/// The image files on disk: a run's directory is read as a guest's, and stored images are whole or absent.
struct ImageStoreTests {
    private final class Scratch {
        let state: URL
        let store: ImageStore

        init() throws {
            state = FileManager.default.temporaryDirectory.appendingPathComponent("images-\(UUID().uuidString)")
            store = ImageStore(stateDirectory: state.appendingPathComponent("state"),
                               runtimeDirectory: state.appendingPathComponent("run"))
            try store.prepare()
        }

        deinit {
            try? FileManager.default.removeItem(at: state)
        }
    }

    private func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test func aRunsDirectoryIsFreshEmptyAndPrivate() throws {
        let scratch = try Scratch()
        let first = try scratch.store.makeRunDirectory()
        let second = try scratch.store.makeRunDirectory()
        #expect(first != second)
        #expect(first.hasPrefix(scratch.store.runsDirectory.path + "/run-"))
        #expect(scratch.store.names(inRunDirectory: first).isEmpty)
        var info = stat()
        #expect(stat(first, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
    }

    @Test func aRegularFileIsReadUpToOneBytePastTheLimit() throws {
        let scratch = try Scratch()
        let run = try scratch.store.makeRunDirectory()
        try write(ImageSamples.png, to: run + "/cat.png")
        try write([UInt8](repeating: 7, count: 5000), to: run + "/big.png")
        #expect(try scratch.store.readRunFile("cat.png", inRunDirectory: run, limit: 4096).get() == ImageSamples.png)
        #expect(try scratch.store.readRunFile("big.png", inRunDirectory: run, limit: 4096).get().count == 4097)
        #expect(scratch.store.names(inRunDirectory: run).sorted() == ["big.png", "cat.png"])
    }

    @Test func whatIsNotAFileOfItsOwnIsRefusedWithoutBeingFollowedOrBlockedOn() throws {
        let scratch = try Scratch()
        let run = try scratch.store.makeRunDirectory()
        let outside = scratch.state.appendingPathComponent("outside.png").path
        try write(ImageSamples.png, to: outside)
        #expect(symlink(outside, run + "/link.png") == 0)
        #expect(mkfifo(run + "/fifo.png", 0o600) == 0)
        #expect(link(outside, run + "/hard.png") == 0)
        #expect(mkdir(run + "/dir.png", 0o700) == 0)
        // A socket a provider bound: opening one fails, and the refusal must say what it is all the same.
        let socketDescriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(socketDescriptor) }
        #expect(UnixSocketAddress(path: run + "/socket.png")?.bind(socketDescriptor) == 0)
        // A device (the suite runs as root, as its setpriv users need): never opened, a read of it could block.
        #expect(mknod(run + "/device.png", S_IFCHR | 0o600, 0x103) == 0, "mknod: errno \(errno)")
        let refusals = ["link.png", "fifo.png", "hard.png", "dir.png", "socket.png", "device.png", "missing.png"].map {
            scratch.store.readRunFile($0, inRunDirectory: run, limit: 1 << 20).map(\.count)
        }
        #expect(refusals == [
            .failure(RunFileRefusal("is a symbolic link")), .failure(RunFileRefusal("is a FIFO")),
            .failure(RunFileRefusal("has 2 hard links: an image must be a file of its own")),
            .failure(RunFileRefusal("is a directory")), .failure(RunFileRefusal("is a socket")),
            .failure(RunFileRefusal("is a device")),
            .failure(RunFileRefusal("cannot be read: No such file or directory")),
        ])
    }

    @Test func anImageIsStoredOnceReadBackAndRemoved() throws {
        let scratch = try Scratch()
        let hash = ImageDigest.sha256(ImageSamples.jpeg)
        try scratch.store.store(ImageSamples.jpeg, sha256: hash)
        try scratch.store.store(ImageSamples.jpeg, sha256: hash)
        #expect(try scratch.store.read(sha256: hash) == ImageSamples.jpeg)
        #expect(try scratch.store.storedHashes() == [hash])
        var info = stat()
        #expect(stat(scratch.store.imagesDirectory.path + "/" + hash, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        scratch.store.remove(sha256: hash)
        #expect(try scratch.store.read(sha256: hash) == nil)
        #expect(try scratch.store.storedHashes().isEmpty)
    }

    @Test func aStoreAKillInterruptedLeavesNoImageAndIsCleanedUp() throws {
        let scratch = try Scratch()
        let partial = scratch.store.imagesDirectory.appendingPathComponent(".storing-AbC123").path
        try write([1, 2, 3], to: partial)
        #expect(try scratch.store.storedHashes().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: partial))
    }

    @Test func anEmptyRunDirectoryGoesAtOnceAndOneWithAFileStaysForItsReading() throws {
        let scratch = try Scratch()
        let empty = try scratch.store.makeRunDirectory()
        #expect(scratch.store.removeRunDirectoryIfEmpty(empty))
        #expect(!FileManager.default.fileExists(atPath: empty))
        let written = try scratch.store.makeRunDirectory()
        try write(ImageSamples.png, to: written + "/cat.png")
        #expect(!scratch.store.removeRunDirectoryIfEmpty(written))
        #expect(scratch.store.names(inRunDirectory: written) == ["cat.png"])
        scratch.store.removeRunDirectory(written)
        #expect(!FileManager.default.fileExists(atPath: written))
    }

    @Test func runDirectoriesGoWhateverTheProviderLeftInThem() throws {
        let scratch = try Scratch()
        let run = try scratch.store.makeRunDirectory()
        let outside = scratch.state.appendingPathComponent("keep.png").path
        try write(ImageSamples.png, to: outside)
        #expect(symlink(scratch.state.path, run + "/up") == 0)
        #expect(mkdir(run + "/locked", 0o700) == 0)
        try write([1], to: run + "/locked/file")
        #expect(chmod(run + "/locked", 0) == 0)
        scratch.store.removeRunDirectory(run)
        #expect(!FileManager.default.fileExists(atPath: run))
        #expect(FileManager.default.fileExists(atPath: outside), "a link is removed, never followed")
        let left = try scratch.store.makeRunDirectory()
        try write([1], to: left + "/x")
        scratch.store.removeRunDirectories()
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.store.runsDirectory.path).isEmpty)
    }
}
