import Foundation
import Glibc

/// The processes a provider left: every process whose working directory is inside a providers directory (a
/// provider runs in its manifest's directory, and everything it starts inherits that), or whose process group is a
/// provider's pid.
public enum ProviderProcesses {
    /// A process still alive, for a failure message.
    public struct Leftover: CustomStringConvertible {
        public var pid: Int32
        public var command: String
        public var description: String { "\(pid) \(command)" }
    }

    /// Live (not zombie) processes with their working directory under `directory`.
    public static func under(_ directory: String) -> [Leftover] {
        scan { pid in
            guard let cwd = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd") else {
                return false
            }
            return cwd == directory || cwd.hasPrefix(directory + "/")
        }
    }

    /// Live processes in process group `group`.
    public static func inGroup(_ group: Int32) -> [Leftover] {
        scan { pid in getpgid(pid) == group }
    }

    /// Kills whatever is left under `directory` (cleanup after a failed test).
    public static func killAll(under directory: String) {
        for leftover in under(directory) { kill(leftover.pid, SIGKILL) }
    }

    private static func scan(_ matches: (Int32) -> Bool) -> [Leftover] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        var found: [Leftover] = []
        for entry in entries {
            guard let pid = Int32(entry), matches(pid) else { continue }
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { continue }
            // "pid (comm) S ...": the state letter follows the last parenthesis.
            guard let close = stat.lastIndex(of: ")") else { continue }
            let after = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces)
            if after.hasPrefix("Z") || after.hasPrefix("X") { continue }
            let command = ((try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? "")
                .replacingOccurrences(of: "\0", with: " ")
            found.append(Leftover(pid: pid, command: command))
        }
        return found
    }
}
