import CSystemd
import Glibc

/// Sockets passed by systemd socket activation (sd_listen_fds(3)).
public enum ListenFDs {
    /// One passed descriptor and its FileDescriptorName= (or "unknown" when the unit sets none).
    public struct Descriptor: Sendable, Equatable {
        public let fd: Int32
        public let name: String
    }

    /// The passed descriptors, starting at 3; empty when the process was not socket-activated.
    /// `unsetEnvironment` removes LISTEN_PID/LISTEN_FDS/LISTEN_FDNAMES so children do not inherit them.
    public static func descriptors(unsetEnvironment: Bool = true) throws -> [Int32] {
        let count = try check(sd_listen_fds(unsetEnvironment ? 1 : 0), "sd_listen_fds")
        return (0..<count).map { SD_LISTEN_FDS_START + $0 }
    }

    /// The passed descriptors with their names, in order.
    public static func named(unsetEnvironment: Bool = true) throws -> [Descriptor] {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let count = try check(sd_listen_fds_with_names(unsetEnvironment ? 1 : 0, &names), "sd_listen_fds_with_names")
        defer {
            if let names {
                for index in 0..<Int(count) {
                    free(names[index])
                }
                free(names)
            }
        }
        return (0..<count).map { index in
            let name = names?[Int(index)].map { String(cString: $0) } ?? "unknown"
            return Descriptor(fd: SD_LISTEN_FDS_START + index, name: name)
        }
    }
}
