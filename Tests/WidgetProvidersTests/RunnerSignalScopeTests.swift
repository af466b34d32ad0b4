import Foundation
import Testing
import WidgetProtocol
@testable import WidgetProviders
import WidgetSchedulerTestKit

/// A sandboxed provider cannot signal anything outside its own run: not the process that runs the runner (the
/// daemon), not the sandbox's spawning thread (a signal to a thread's id is a signal to its whole process), not a
/// process the runner's process started apart from the run. Each probe uses signal 0, which the kernel checks exactly
/// as a real signal and delivers nothing, so a failure of the guard cannot take the test process down.
@Suite("Runner signal scope")
struct RunnerSignalScopeTests {
    /// Reports each attempt as `name=allowed`, `name=denied` (EPERM) or `name=E<errno>`, on one line.
    private static let probe = #"""
        #!/usr/bin/python3
        import ctypes, errno, os, platform, socket, sys
        libc = ctypes.CDLL(None, use_errno=True)
        numbers = {"x86_64": {"clone": 56, "tgkill": 234, "pidfd_send_signal": 424, "clone3": 435},
                   "aarch64": {"clone": 220, "tgkill": 131, "pidfd_send_signal": 424, "clone3": 435}}[platform.machine()]
        out = []
        def outcome(name, call):
            try:
                call()
                out.append(name + "=allowed")
            except PermissionError:
                out.append(name + "=denied")
            except OSError as error:
                out.append(name + "=E" + str(error.errno))
        def raw(name, *arguments):
            result = libc.syscall(numbers[name], *arguments)
            if result < 0:
                number = ctypes.get_errno()
                raise OSError(number, os.strerror(number))
        parent = os.getppid()
        spawners = [int(t) for t in os.listdir("/proc/%d/task" % parent)
                    if open("/proc/%d/task/%s/comm" % (parent, t)).read().strip() == "provider-spawn"]
        out.append("spawners=%d" % len(spawners))
        outcome("parent", lambda: os.kill(parent, 0))
        outcome("parentGroup", lambda: os.kill(-os.getpgid(parent), 0))
        outcome("spawnerThread", lambda: [os.kill(t, 0) for t in spawners])
        outcome("tgkillSpawner", lambda: [raw("tgkill", parent, t, 0) for t in spawners])
        outcome("outsider", lambda: os.kill(int(os.environ["OUTSIDER"]), 0))
        outcome("self", lambda: os.kill(os.getpid(), 0))
        outcome("ownGroup", lambda: os.kill(0, 0))
        reading, writing = os.pipe()
        child = os.fork()
        if child == 0:
            os.close(writing)
            os.read(reading, 1)
            os._exit(0)
        outcome("ownChild", lambda: os.kill(child, 0))
        os.close(writing)
        os.waitpid(child, 0)
        pidfd = os.pidfd_open(os.getpid())
        outcome("pidfdSendSignal", lambda: raw("pidfd_send_signal", pidfd, 0, None, 0))
        outcome("clone3", lambda: raw("clone3", None, 0))
        # CLONE_PARENT | CLONE_SIGHAND without CLONE_VM: the kernel refuses the combination (EINVAL), after the filter.
        outcome("cloneParent", lambda: raw("clone", 0x8000 | 0x800, 0, None, None, 0))
        abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        outcome("abstractSocket", lambda: abstract.connect("\0" + os.environ["ABSTRACT"]))
        print(" ".join(out))
        """#

    /// A listening abstract Unix socket named `name`, made outside any run; its descriptor.
    private static func abstractListener(named name: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        let address = try #require(UnixSocketAddress(abstractName: name))
        try #require(address.bind(fd) == 0 && listen(fd, 4) == 0)
        return fd
    }

    private static func outcomes(_ result: ProcessResult) -> [String: String] {
        var pairs: [String: String] = [:]
        for field in String(decoding: result.stdout, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let parts = field.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { pairs[parts[0]] = parts[1] }
        }
        return pairs
    }

    /// Runs the probe in `sandbox`, with an outsider process and an abstract socket of this process to aim at.
    private static func probe(in sandbox: ProviderSandbox) throws -> [String: String] {
        let directory = try RunnerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outsider = try ChildProcess.idle()
        defer { outsider.killAndWait() }
        let name = "widget-scheduler-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let listener = try abstractListener(named: name)
        defer { close(listener) }
        var environment = ProcessSpec.minimalEnvironment
        environment["OUTSIDER"] = String(outsider.pid)
        environment["ABSTRACT"] = name
        let spec = ProcessSpec(argv: try RunnerHarness.interpreted(probe, in: directory), environment: environment,
                               timeout: 20)
        let result = RunnerHarness.run([spec], sandbox: sandbox)[0]
        #expect(result.succeeded, "\(result)")
        return outcomes(result)
    }

    @Test func withLandlocksScopeAProviderSignalsOnlyWhatItsRunStarted() throws {
        let sandbox = try ProviderSandbox(writablePaths: ["/dev"])
        guard sandbox.abi >= 6 else {
            #expect(sandbox.signalGuard != .landlockScope)
            return
        }
        #expect(sandbox.signalGuard == .landlockScope)
        let report = try Self.probe(in: sandbox)
        #expect(report["spawners"] != "0", "the probe found the spawning thread: \(report)")
        #expect(report == report.merging([
            "parent": "denied", "parentGroup": "denied", "spawnerThread": "denied", "tgkillSpawner": "denied",
            "outsider": "denied", "self": "allowed", "ownGroup": "allowed", "ownChild": "allowed",
            "pidfdSendSignal": "allowed", "clone3": "E\(ENOSYS)", "cloneParent": "denied", "abstractSocket": "denied",
        ]) { $1 }, "\(report)")
    }

    @Test func withTheSeccompFilterAProviderSignalsOnlyItsOwnProcessGroup() throws {
        let sandbox = try ProviderSandbox(writablePaths: ["/dev"], preferringSeccompFor: .signals)
        #expect(sandbox.signalGuard == .seccompFilter)
        let report = try Self.probe(in: sandbox)
        #expect(report["spawners"] != "0", "the probe found the spawning thread: \(report)")
        #expect(report == report.merging([
            "parent": "denied", "parentGroup": "denied", "spawnerThread": "denied", "tgkillSpawner": "denied",
            "outsider": "denied", "self": "denied", "ownGroup": "allowed", "ownChild": "denied",
            "pidfdSendSignal": "E\(ENOSYS)", "clone3": "E\(ENOSYS)", "cloneParent": "denied",
            // A filter cannot see a socket's address: abstract sockets are Landlock's alone.
            "abstractSocket": "allowed",
        ]) { $1 }, "\(report)")
    }

    @Test func withoutASandboxTheProbeReachesEverything() throws {
        let directory = try RunnerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = "widget-scheduler-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let listener = try Self.abstractListener(named: name)
        defer { close(listener) }
        var environment = ProcessSpec.minimalEnvironment
        environment["OUTSIDER"] = String(getpid())
        environment["ABSTRACT"] = name
        let spec = ProcessSpec(argv: try RunnerHarness.interpreted(Self.probe, in: directory),
                               environment: environment, timeout: 20)
        let report = Self.outcomes(RunnerHarness.run(spec))
        #expect(report["parent"] == "allowed", "\(report)")
        #expect(report["outsider"] == "allowed", "\(report)")
        #expect(report["clone3"] != "E\(ENOSYS)", "\(report)")
        #expect(report["cloneParent"] == "E\(EINVAL)", "\(report)")
        #expect(report["abstractSocket"] == "allowed", "\(report)")
    }
}
