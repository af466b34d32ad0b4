import Glibc

/// Files a test writes for a daemon to read or execute (provider scripts, manifests), written so that no other
/// process keeps them open for writing.
///
/// The tests run in parallel threads of one process. A descriptor open for writing that a child of another thread
/// inherits (a daemon: for its whole life) keeps the file busy, and executing it then fails with ETXTBSY ("Text file
/// busy"). So the file is written close-on-exec under a temporary name and renamed into place, and readers only ever
/// see it whole.
public enum CloseOnExecFile {
    /// A step that failed, naming the file and the system's reason.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes `text` to `path` with permissions `mode` (whatever the umask), replacing any file there at once.
    public static func write(_ text: String, to path: String, mode: mode_t = 0o644) throws {
        let temporary = path + ".writing"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw failure("cannot create", temporary) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let error = failure("cannot write", temporary)
                close(fd)
                throw error
            }
            written += count
        }
        let modeSet = fchmod(fd, mode) == 0
        let modeFailure = failure("cannot set the mode of", temporary)
        close(fd)
        guard modeSet else { throw modeFailure }
        guard rename(temporary, path) == 0 else { throw failure("cannot rename \(temporary) to", path) }
    }

    private static func failure(_ step: String, _ path: String) -> Failure {
        Failure(description: "\(step) \(path): \(String(cString: strerror(errno)))")
    }
}
