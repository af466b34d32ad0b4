import CSpawn
import Glibc
import Testing
@testable import WidgetProviders

/// The runner reads its pipe ends without waiting, though they are not made non-blocking when the kernel honours
/// RWF_NOWAIT: an empty pipe whose writer lives must answer EAGAIN, never block the loop.
@Suite("Pipe reads")
struct PipeReadTests {
    @Test func aReadNeverWaitsWhateverTheDescriptorsFlags() throws {
        var fds: [Int32] = [-1, -1]
        let parentNonblockingEnd: Int32 = RunnerSharedState.readsPipesWithoutWaiting ? -1 : 0
        #expect(cspawn_pipe(&fds, parentNonblockingEnd) == 0)
        defer { for fd in fds where fd >= 0 { close(fd) } }
        var byte: UInt8 = 0
        let read: () -> Int = {
            RunnerSharedState.readsPipesWithoutWaiting
                ? cspawn_read_nowait(fds[0], &byte, 1) : Glibc.read(fds[0], &byte, 1)
        }
        #expect(read() == -1 && errno == EAGAIN, "an empty pipe with a live writer")
        #expect(write(fds[1], "x", 1) == 1)
        #expect(read() == 1 && byte == UInt8(ascii: "x"))
        close(fds[1])
        fds[1] = -1
        // A child that another test spawns at this moment holds a copy of the write end between its fork and its
        // exec (close-on-exec closes it only then): wait for the last writer to go, as the runner's loop does.
        var ready = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 30_000) == 1, "the writer gone within 30 s")
        #expect(read() == 0, "end-of-file once the writer is gone")
    }

    @Test func thisKernelReadsPipesWithoutWaiting() {
        // Linux 6.x, as here and on every supported machine: the fallback (fcntl per run) is for older kernels.
        var name = utsname()
        uname(&name)
        let release = withUnsafeBytes(of: name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let major = Int(release.prefix { $0 != "." }) ?? 0
        if major >= 6 { #expect(RunnerSharedState.readsPipesWithoutWaiting) }
    }
}
