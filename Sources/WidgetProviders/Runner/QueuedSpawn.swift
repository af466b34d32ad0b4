import CSpawn

#if canImport(Glibc)
import Glibc
#endif

/// Everything one posix_spawn call reads, in memory of its own: the path, argv, envp, file actions and attributes,
/// and the `cspawn_job` that points at them. A spawn queued on a `ProviderSandbox` runs on another thread after the
/// caller has moved on, so nothing it reads may live on the caller's stack; it is freed once the spawn is done.
final class QueuedSpawn {
    /// What the sandbox's thread reads, and where it puts the pid and result.
    let job = UnsafeMutablePointer<cspawn_job>.allocate(capacity: 1)
    private let actions = UnsafeMutablePointer<posix_spawn_file_actions_t>.allocate(capacity: 1)
    private let attributes = UnsafeMutablePointer<posix_spawnattr_t>.allocate(capacity: 1)
    private let path: UnsafeMutablePointer<CChar>
    private let arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    private let argumentCount: Int
    private let variables: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    private let variableCount: Int
    private var actionsReady = false
    private var attributesReady = false

    /// Prepares the spawn of `path` with an isolated process group and signals, `stdio` as descriptors 0–2, every
    /// other descriptor closed and, if given, `dataLimit` as its RLIMIT_DATA; throws the error number if the
    /// attributes or file actions cannot be set up.
    init(path: String, argv: [String], environment: [String: String], workingDirectory: String?,
         stdio: (Int32, Int32, Int32), dataLimit: UInt64?) throws(SpawnSetupError) {
        self.path = strdup(path)
        argumentCount = argv.count + 1
        arguments = .allocate(capacity: argumentCount)
        for (index, argument) in argv.enumerated() { arguments[index] = strdup(argument) }
        arguments[argv.count] = nil
        let pairs = environment.sorted { $0.key < $1.key }
        variableCount = pairs.count + 1
        variables = .allocate(capacity: variableCount)
        for (index, pair) in pairs.enumerated() { variables[index] = strdup("\(pair.key)=\(pair.value)") }
        variables[pairs.count] = nil

        var error = cspawn_attr_init_isolated(attributes)
        guard error == 0 else { throw SpawnSetupError(errno: error) }
        attributesReady = true
        if let workingDirectory {
            error = workingDirectory.withCString { cspawn_file_actions_init(actions, stdio.0, stdio.1, stdio.2, $0) }
        } else {
            error = cspawn_file_actions_init(actions, stdio.0, stdio.1, stdio.2, nil)
        }
        guard error == 0 else { throw SpawnSetupError(errno: error) }
        actionsReady = true
        job.initialize(to: cspawn_job(path: self.path, actions: actions, attributes: attributes, argv: arguments,
                                      envp: variables, data_limit: dataLimit ?? 0, pid: 0, result: 0, pidfd: -1,
                                      pidfd_errno: 0, limit_errno: 0, next: nil))
    }

    deinit {
        if attributesReady { posix_spawnattr_destroy(attributes) }
        if actionsReady { posix_spawn_file_actions_destroy(actions) }
        attributes.deallocate()
        actions.deallocate()
        for index in 0..<argumentCount { free(arguments[index]) }
        for index in 0..<variableCount { free(variables[index]) }
        arguments.deallocate()
        variables.deallocate()
        free(path)
        job.deallocate()
    }

    /// Spawns on the calling thread, blocking until the child has exec'd, then caps its data and opens its pidfd
    /// (`cspawn_job_run`, as the sandbox's thread does).
    func spawnHere() {
        cspawn_job_run(job)
    }

    /// The child's pid (after the spawn).
    var pid: pid_t { job.pointee.pid }
    /// posix_spawn's result: 0, or an error number (after the spawn).
    var result: Int32 { job.pointee.result }
    /// The child's pidfd, or -1 with `pidfdErrno` (after a successful spawn). Whoever takes the spawn owns it.
    var pidfd: Int32 { job.pointee.pidfd }
    /// Why the pidfd could not be opened.
    var pidfdErrno: Int32 { job.pointee.pidfd_errno }
    /// 0, or why the data limit could not be set.
    var limitErrno: Int32 { job.pointee.limit_errno }
}

/// Setting up a spawn's attributes or file actions failed with `errno`.
struct SpawnSetupError: Error {
    var errno: Int32
}
