import Testing
import WidgetProviders

/// Where the runs' image directories may lie: not beneath a path every provider may write, where the runs would not
/// be kept out of each other's directories.
struct ProviderSandboxRunRootTests {
    @Test(arguments: [
        ("/run/widget-scheduler/image-runs", ["/tmp", "/var/tmp", "/dev"], nil),
        ("/tmp/world/run/image-runs", ["/tmp", "/var/tmp", "/dev"], "/tmp"),
        ("/dev/shm/bench/image-runs", ["/tmp", "/var/tmp", "/dev"], "/dev"),
        ("/tmp", ["/tmp"], "/tmp"),
        ("/tmpfoo/image-runs", ["/tmp"], nil),
        ("/tmp/image-runs", ["/tmp/"], "/tmp/"),
        ("/var/lib/ws/image-runs", ["/"], "/"),
        ("/run/ws/image-runs", ["/run/ws/image-runs/run-1"], nil),
    ] as [(String, [String], String?)])
    func aRunRootBeneathAWritablePathIsFound(runRoot: String, writable: [String], expected: String?) {
        #expect(ProviderSandbox.writablePath(containing: runRoot, among: writable) == expected)
    }
}
