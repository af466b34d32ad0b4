import Foundation
import Glibc
import Testing
import WidgetProtocol
import WidgetSchedulerTestKit

/// The daemon raises its own soft limit on open descriptors for its clients; its providers must start with the limit
/// the daemon was given, as systemd's services do, not the raised one.
@Suite("descriptor limits")
struct DescriptorLimitTests {
    @Test func providersGetTheDescriptorLimitTheDaemonStartedWithNotTheRaisedOne() throws {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        // systemd's default soft limit for services; the hard one stays (raising it needs CAP_SYS_RESOURCE).
        let started: UInt64 = 1_024
        try #require(UInt64(limit.rlim_max) > started, "the hard limit leaves the daemon no room to raise its own")
        let world = try DaemonWorld(config: "")
        // The limit is set the moment the spawn returns, after the provider's exec: it looks for up to 2 s for the
        // one it should get, then tells what it has.
        try world.addKind("limits", script: """
            #!/bin/sh
            tries=0
            while [ "$(ulimit -n)" != \(started) ] && [ $tries -lt 200 ]; do sleep 0.01; tries=$((tries + 1)); done
            entry='{"date":"2000-01-01T00:00:00Z","content":{"soft":"%s","hard":"%s"}}'
            printf "{\\"entries\\":[$entry],\\"policy\\":\\"never\\"}\\n" "$(ulimit -n)" "$(ulimit -Hn)"
            """)
        try world.start(prefix: ["prlimit", "--nofile=\(started):\(limit.rlim_max)", "--"])
        _ = try world.connect().add("limits")
        let content = try eventually("the provider's first entry") {
            try world.connect().list().first?.currentEntry?.content
        }
        let daemonSoft = try Self.softDescriptorLimit(of: world.daemonPID)
        #expect(daemonSoft > started, "the daemon raised its own soft limit")
        #expect(content == .object(["soft": .string(String(started)), "hard": .string(String(limit.rlim_max))]))
    }

    /// The soft "Max open files" of process `pid`, from /proc/PID/limits.
    static func softDescriptorLimit(of pid: pid_t) throws -> UInt64 {
        let text = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Max open files") }),
              let soft = line.dropFirst("Max open files".count).split(separator: " ").first.flatMap({ UInt64($0) })
        else { throw TestFailure("no soft descriptor limit in /proc/\(pid)/limits") }
        return soft
    }
}
