import Foundation
import Glibc
import Testing
import WidgetProtocol
@testable import WidgetSchedulerRuntime

/// A control peer with the daemon's uid is a provider's when it descends from the daemon in the process tree
/// (`PeerCredentials.isProvider`): here this test process plays the daemon, and its children the providers.
@Suite("Peer lineage")
struct PeerLineageTests {
    /// A listening socket at a fresh path, closed and unlinked when the test ends.
    private final class Listener {
        let path: String
        let fd: Int32

        init() throws {
            path = NSTemporaryDirectory() + "lineage-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).socket"
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            try #require(fd >= 0)
            let address = try #require(UnixSocketAddress(path: path))
            try #require(address.bind(fd) == 0 && listen(fd, 8) == 0)
        }

        deinit {
            close(fd)
            unlink(path)
        }

        /// The next connection's descriptor; fails if none comes within 20 s (a child that could not connect).
        func accept() throws -> Int32 {
            var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            try #require(poll(&waiting, 1, 20_000) == 1, "no connection came")
            let connection = Glibc.accept(fd, nil, nil)
            try #require(connection >= 0)
            return connection
        }
    }

    /// A child that connects to `path` (through `setpriv` first when `as` names a uid), says so on stdout and waits
    /// for its stdin to end.
    private static func connectingChild(to path: String, as user: String? = nil) throws -> (Process, Pipe) {
        let process = Process()
        let script = "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); "
            + "print('connected', flush=True); sys.stdin.read()"
        if let user {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", "/usr/bin/python3",
                                 "-c", script, path]
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-c", script, path]
        }
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        _ = output.fileHandleForReading.readData(ofLength: 10)
        return (process, input)
    }

    @Test func aChildOfTheDaemonIsAProvidersAndTheDaemonItselfIsNot() throws {
        let listener = try Listener()
        let (child, input) = try Self.connectingChild(to: listener.path)
        defer {
            input.fileHandleForWriting.closeFile()
            child.waitUntilExit()
        }
        let fromChild = try listener.accept()
        defer { close(fromChild) }
        let peer = try PeerCredentials.of(socket: fromChild, providerAncestor: getpid())
        #expect(peer.pid == child.processIdentifier)
        #expect(peer.isProvider)
        // The same peer, with another process as the daemon: not below it.
        #expect(try !PeerCredentials.of(socket: fromChild, providerAncestor: child.processIdentifier).isProvider)
        #expect(try !PeerCredentials.of(socket: fromChild).isProvider, "no ancestor given, nobody is a provider's")

        let own = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(own) }
        try #require(try #require(UnixSocketAddress(path: listener.path)).connect(own) == 0)
        let fromSelf = try listener.accept()
        defer { close(fromSelf) }
        #expect(try !PeerCredentials.of(socket: fromSelf, providerAncestor: getpid()).isProvider)
    }

    @Test func aPeerOfAnotherUserIsNeverLookedUp() throws {
        guard geteuid() == 0 else { return }
        let listener = try Listener()
        chmod(listener.path, 0o666)
        let (child, input) = try Self.connectingChild(to: listener.path, as: "65534")
        defer {
            input.fileHandleForWriting.closeFile()
            child.waitUntilExit()
        }
        let connection = try listener.accept()
        defer { close(connection) }
        let peer = try PeerCredentials.of(socket: connection, providerAncestor: getpid())
        #expect(peer.uid != 0)
        #expect(!peer.isProvider, "its uid is not the daemon's: it has no rights to lose")
    }

    @Test func aPeerThatIsGoneBeforeItIsLookedUpCountsAsAProviders() throws {
        let listener = try Listener()
        let (child, input) = try Self.connectingChild(to: listener.path)
        input.fileHandleForWriting.closeFile()
        child.waitUntilExit()
        let connection = try listener.accept()
        defer { close(connection) }
        // As the daemon, a process the peer never descended from: a live peer would be told apart from its
        // providers. A gone one's place in the tree cannot be proven any more: with the daemon's uid, it gets nothing.
        let outsider = Process()
        outsider.executableURL = URL(fileURLWithPath: "/bin/sleep")
        outsider.arguments = ["30"]
        try outsider.run()
        defer {
            kill(outsider.processIdentifier, SIGKILL)  // SIGTERM may be blocked in this process, and so in it
            outsider.waitUntilExit()
        }
        #expect(try PeerCredentials.of(socket: connection, providerAncestor: outsider.processIdentifier).isProvider)
    }
}
