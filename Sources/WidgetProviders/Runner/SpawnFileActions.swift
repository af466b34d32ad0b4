import CSpawn

#if canImport(Glibc)
import Glibc
#endif

/// posix_spawn file actions that put three descriptors on 0, 1 and 2, change to a directory and close everything
/// else, built once per set of descriptor numbers and shared: a pipe's ends come back with the same numbers run after
/// run, and glibc asks getrlimit twice for each descriptor it is given, so building them per spawn costs seven
/// system calls. Read-only once built, and kept alive by every queued spawn that uses them.
final class SpawnFileActions {
    /// What the actions do, for the runner's cache.
    struct Key: Hashable {
        var stdin: Int32
        var stdout: Int32
        var stderr: Int32
        var workingDirectory: String?
    }

    let actions = UnsafeMutablePointer<posix_spawn_file_actions_t>.allocate(capacity: 1)
    private var ready = false

    /// Throws the error number if glibc refuses an action.
    init(_ key: Key) throws(SpawnSetupError) {
        let error: Int32
        if let directory = key.workingDirectory {
            error = directory.withCString { cspawn_file_actions_init(actions, key.stdin, key.stdout, key.stderr, $0) }
        } else {
            error = cspawn_file_actions_init(actions, key.stdin, key.stdout, key.stderr, nil)
        }
        ready = true
        guard error == 0 else { throw SpawnSetupError(errno: error) }
    }

    deinit {
        if ready { posix_spawn_file_actions_destroy(actions) }
        actions.deallocate()
    }
}
