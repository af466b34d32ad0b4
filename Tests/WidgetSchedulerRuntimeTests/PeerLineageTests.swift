import Foundation
import Glibc
import Testing
import WidgetProtocol
@testable import WidgetSchedulerRuntime
import WidgetSchedulerTestKit

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
    /// for its stdin to end; with the write end of its stdin, to close.
    private static func connectingChild(to path: String, as user: String? = nil) throws -> (ChildProcess, Int32) {
        let script = "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); "
            + "print('connected', flush=True); sys.stdin.read()"
        let python = ["/usr/bin/python3", "-c", script, path]
        let arguments = user.map { ["/usr/bin/setpriv", "--reuid=\($0)", "--regid=\($0)", "--clear-groups"] + python }
            ?? python
        let input = try Descriptor.pipe()
        let output = try Descriptor.pipe()
        defer { close(output.read) }
        let child: ChildProcess
        do {
            // The child's ends are the child's alone: an end of file below then means it is gone.
            defer {
                close(input.read)
                close(output.write)
            }
            child = try ChildProcess(arguments, environment: ProcessInfo.processInfo.environment, input: input.read,
                                     output: output.write, error: STDERR_FILENO)
        } catch {
            close(input.write)
            throw error
        }
        // Its line says it has connected; an end of file, that it could not (`accept` then fails).
        var line = [UInt8](repeating: 0, count: 16)
        _ = read(output.read, &line, line.count)
        return (child, input.write)
    }

    @Test func aChildOfTheDaemonIsAProvidersAndTheDaemonItselfIsNot() throws {
        let listener = try Listener()
        let (child, input) = try Self.connectingChild(to: listener.path)
        defer {
            close(input)
            child.waitForExit(timeout: 20)
        }
        let fromChild = try listener.accept()
        defer { close(fromChild) }
        let peer = try PeerCredentials.of(socket: fromChild, providerAncestor: getpid())
        #expect(peer.pid == child.pid)
        #expect(peer.isProvider)
        // The same peer, with another process as the daemon: not below it.
        #expect(try !PeerCredentials.of(socket: fromChild, providerAncestor: child.pid).isProvider)
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
            close(input)
            child.waitForExit(timeout: 20)
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
        close(input)
        while child.waitForExit(timeout: 3_600) == nil {}
        let connection = try listener.accept()
        defer { close(connection) }
        // As the daemon, a process the peer never descended from: a live peer would be told apart from its
        // providers. A gone one's place in the tree cannot be proven any more: with the daemon's uid, it gets nothing.
        let outsider = try ChildProcess.idle()
        defer { outsider.killAndWait() }
        #expect(try PeerCredentials.of(socket: connection, providerAncestor: outsider.pid).isProvider)
    }
}
