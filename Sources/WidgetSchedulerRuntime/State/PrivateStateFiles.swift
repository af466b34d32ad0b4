import Foundation
import Glibc

/// The state directory's files are the daemon's alone: the database, its WAL and shared memory, the run-start
/// journal, and the group data (a group's values are private to the group; others ask the daemon). Under the unit
/// `UMask=0077` makes them so; started by hand with a shell's umask 022 they were 0644, readable by any local user.
///
/// The directory itself is made 0700, so nothing below it is reachable by another user whatever its own mode, and
/// group and other permissions are taken off what an older version left there. The daemon does not change its umask:
/// the control socket and its directory must stay open to local users. The files it creates below are 0600 all the
/// same (`StateStore` creates the database 0600 and SQLite gives its WAL the database's mode; group data files and
/// directories are created 0600 and 0700). Providers run as the daemon's user and still read their group's files.
public enum PrivateStateFiles {
    /// Makes `directory` 0700 and removes group and other permissions from everything below it. Returns how many
    /// entries were changed.
    @discardableResult
    public static func apply(to directory: URL) -> Int {
        var changed = 0
        var paths = [directory.path]
        if let walker = FileManager.default.enumerator(atPath: directory.path) {
            while let relative = walker.nextObject() as? String {
                paths.append(directory.path + "/" + relative)
            }
        }
        for path in paths {
            var info = stat()
            // lstat: a symbolic link is not followed out of the directory.
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFLNK else { continue }
            let mode = info.st_mode & 0o7777
            guard mode & 0o077 != 0 else { continue }
            if chmod(path, mode & ~0o077) == 0 { changed += 1 }
        }
        return changed
    }
}
