import Foundation
import Glibc
import Logging
import SystemdKit
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore

/// The `widget-scheduler` service: one sd-event loop serving the scheduler's one timer, provider pipes and pidfds,
/// control connections, signals, wall-clock changes and the watchdog. No async and no Dispatch: besides the loop,
/// only the provider sandbox's spawning thread and the state store's checkpoint thread, each asleep until the loop
/// hands it work. With nothing due, the process sleeps.
public final class Daemon {
    /// Command-line choices.
    public struct Options: Sendable {
        public var configPath: String
        public var stateDirectory: String
        public var runtimeDirectory: String
        public var providerDirectories: [String]
        /// nil: `<runtime-dir>/control.socket`, unless systemd passes a socket.
        public var socketPath: String?
        public var version: String
        /// Start even when the state shows it lost widgets (`StateLoss`), logging what was lost.
        public var acceptStateLoss: Bool

        public init(configPath: String, stateDirectory: String, runtimeDirectory: String,
                    providerDirectories: [String], socketPath: String?, version: String,
                    acceptStateLoss: Bool = false) {
            self.configPath = configPath
            self.stateDirectory = stateDirectory
            self.runtimeDirectory = runtimeDirectory
            self.providerDirectories = providerDirectories
            self.socketPath = socketPath
            self.version = version
            self.acceptStateLoss = acceptStateLoss
        }
    }

    /// A start-up failure, said in one line.
    public struct StartError: Error, CustomStringConvertible {
        public var description: String
        /// The journal's MESSAGE_ID for the failure, when it has one of its own.
        public var messageID: JournalMessageID?

        public init(description: String, messageID: JournalMessageID? = nil) {
            self.description = description
            self.messageID = messageID
        }
    }

    let options: Options
    var logger: Logger
    let loop: EventLoop
    let clock: SystemClock
    let notifier = Notifier()
    private(set) var service: WidgetService!
    private var handler: DaemonControlHandler!
    private var server: ControlServer!
    private var sources: [EventSource] = []
    private var runner: ProviderRunner!
    /// The state database, checkpointed at a clean stop.
    private var store: StateStore!
    private var lastStatus = ""
    private var lastStatusRevision = -1
    private var lastStatusTime = -Double.infinity
    private var stopping = false
    /// Writes the state once nothing of normal priority is pending (see `endOfTurn`).
    private var idleFlush: EventSource!
    /// Wakes the loop when the pacer allows the next write (see `endOfTurn`); off while no write waits.
    private var writeTimer: EventSource!
    /// The deadline `writeTimer` was last armed for (microseconds of CLOCK_BOOTTIME).
    private var writeTimerDue: UInt64 = 0
    /// When the turns' changes are written.
    private var writePacer = WritePacer()

    /// The test-only fault switches, on when WIDGET_SCHEDULER_TEST_FAULTS=1: SIGUSR1 wedges the loop (to prove
    /// the watchdog), SIGUSR2 reads a wall-clock offset in seconds from `<runtime-dir>/test-clock-offset`.
    let testFaults = ProcessInfo.processInfo.environment["WIDGET_SCHEDULER_TEST_FAULTS"] == "1"

    /// With the test-only fault switches, `WIDGET_SCHEDULER_TEST_SECCOMP=signals,truncation` (either or both) has the
    /// sandbox use its seccomp filter for those guards even where Landlock could, as on an older kernel.
    var testSeccompPreference: ProviderSandbox.SeccompPreference {
        guard testFaults, let names = ProcessInfo.processInfo.environment["WIDGET_SCHEDULER_TEST_SECCOMP"] else {
            return []
        }
        var preference: ProviderSandbox.SeccompPreference = []
        for name in names.split(separator: ",") {
            switch name {
            case "signals": preference.insert(.signals)
            case "truncation": preference.insert(.truncation)
            default: logger.warning("test fault: WIDGET_SCHEDULER_TEST_SECCOMP: unknown guard \"\(name)\"")
            }
        }
        return preference
    }

    public init(options: Options, logger: Logger) throws {
        self.options = options
        self.logger = logger
        // SIGCHLD too, though nothing here handles it: a provider's parent is the spawning thread, which blocks every
        // signal, so the kernel does not drop the SIGCHLD of its exit as ignored but delivers it to a thread that
        // takes it, this one, waking the loop a second time for nearly every run. Blocked, it stays pending, once;
        // exits are watched through the runs' pipes and pidfds.
        try EventLoop.blockSignals([SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2])
        loop = try EventLoop()
        clock = SystemClock()
    }

    static func loadSettings(_ path: String) throws -> SchedulerSettings {
        let defaults = SchedulerSettings(maxConcurrentRuns: max(1, ProcessInfo.processInfo.activeProcessorCount))
        do {
            return try DaemonConfiguration.load(path: path, defaults: defaults)
        } catch {
            throw StartError(description: "\(error)")
        }
    }

    /// The provider sandbox the configuration asks for. Without Landlock (an old kernel, or one booted without it)
    /// providers run unsandboxed and the journal says so at every start: the unit's own hardening still holds, but the
    /// state directory is then writable to them.
    func makeSandbox(runRoot: String?) throws -> ProviderSandbox? {
        let settings: DaemonConfiguration.ProviderSandboxSettings
        do {
            settings = try DaemonConfiguration.loadSandbox(path: options.configPath)
        } catch {
            throw StartError(description: "\(error)")
        }
        guard settings.enabled else {
            logger.notice("""
                provider sandbox off (provider-sandbox = false): providers may write wherever the service's user \
                may, its state directory included
                """)
            return nil
        }
        do {
            let sandbox = try ProviderSandbox(writablePaths: settings.writablePaths, runRoot: runRoot,
                                              preferringSeccompFor: testSeccompPreference)
            let paths = settings.writablePaths.joined(separator: ", ")
            let line = "providers may write only beneath \(paths) "
                + "(Landlock ABI \(sandbox.abi); \(sandbox.truncateGuard); \(sandbox.signalGuard))"
            var problems = [sandbox.truncateGuard.problem(filterErrno: sandbox.filterErrno),
                            sandbox.signalGuard.problem(filterErrno: sandbox.filterErrno)].compactMap { $0 }
            let files = LocalManifestFileSystem()
            let resolved = { (path: String) in files.resolvedPath(path) ?? path }
            if let runRoot, let exposing = ProviderSandbox.writablePath(
                containing: resolved(runRoot), among: settings.writablePaths.map(resolved)) {
                problems.append("the runs' image directories (\(runRoot)) are beneath \(exposing), which providers "
                    + "may write, so one run can write in another's: give a runtime directory outside the writable "
                    + "paths")
            }
            if sandbox.filterErrno != 0 {
                problems.append("what a provider starts can leave its run's process tree (clone with CLONE_PARENT) "
                    + "and cgroup (clone3): the seccomp filter could not be installed")
            }
            if problems.isEmpty {
                logger.info("\(line)")
            } else {
                logger.warning("\(line); \(problems.joined(separator: "; "))")
            }
            return sandbox
        } catch {
            logger.warning("""
                provider sandbox unavailable, providers run without it (they can write the state directory): \
                \(error)
                """)
            return nil
        }
    }

    /// Gives every run a cgroup of its own where systemd delegated the service's cgroup (`Delegate=yes`), and says
    /// which limits runs have. With the test-only fault switches, `WIDGET_SCHEDULER_TEST_CGROUP=DIR` names a cgroup2
    /// directory to make the runs' cgroups in instead (a daemon started outside systemd).
    func useCgroups(on runner: ProviderRunner) {
        let cgroups: RunCgroups
        do {
            if testFaults, let directory = ProcessInfo.processInfo.environment["WIDGET_SCHEDULER_TEST_CGROUP"] {
                cgroups = try RunCgroups(directory: directory)
            } else {
                cgroups = try RunCgroups.delegated()
            }
        } catch {
            logger.info("""
                runs have no cgroups of their own (\(error)): a run's memory cap holds per process (RLIMIT_DATA), it \
                has no task cap of its own, and what leaves its process group is killed at its end by the daemon, \
                the subreaper of every provider
                """)
            return
        }
        runner.useCgroups(cgroups) { [logger] error in
            logger.warning("a run got no cgroup of its own, its memory is capped per process: \(error)")
        }
        let controllers = cgroups.controllers.sorted()
        let limits = controllers.contains("memory") && controllers.contains("pids")
            ? "memory-max and tasks-max cap each run as a whole"
            : "the cgroup offers \(controllers.isEmpty ? "no controllers" : controllers.joined(separator: ", ")), so "
                + "memory-max holds per process (RLIMIT_DATA)"
        logger.info("every run gets a cgroup of its own below \(cgroups.directory), killed whole at its end; \(limits)")
    }

    /// Says what asking for the event loop's short scheduling slice did (`ThreadScheduling`); the spawning thread
    /// asks the same of the same kernel.
    static func logLatencySlice(_ request: ThreadScheduling.SliceRequest, to logger: Logger) {
        switch request {
        case .applied(let grantedSlice):
            let asked = "a \(Double(ThreadScheduling.latencySliceNanoseconds) / 1_000_000) ms scheduling slice"
            let slice = grantedSlice == ThreadScheduling.latencySliceNanoseconds ? asked
                : asked + ", which this kernel does not grant (Linux 6.12 or later does)"
            logger.info("event loop and provider spawning ask for \(slice); providers start with the default slice")
        case .otherPolicy(let policy):
            logger.info("running under \(policy): the threads' scheduling is left as it is, and providers inherit it")
        case .failed(let call, let code):
            logger.warning("""
                cannot ask for a short scheduling slice (\(call): \(String(cString: strerror(code)))): a \
                provider's exit may wait for a CPU behind another provider
                """)
        }
    }

    /// The control socket's limits from the settings file, with `max-connections` kept below the descriptor limit:
    /// the state store, the journal and each provider run (its pipes and pidfd) need descriptors too.
    func loadControlLimits(maximumConcurrentRuns: Int) throws -> ControlLimits {
        let limits: ControlLimits
        do {
            limits = try DaemonConfiguration.loadControlLimits(path: options.configPath)
        } catch {
            throw StartError(description: "\(error)")
        }
        let spare = 64 + 8 * max(1, maximumConcurrentRuns)
        guard let descriptors = ControlServer.descriptorLimit(),
              let fitted = limits.fitting(descriptorLimit: descriptors, spare: spare) else { return limits }
        logger.notice("""
            max-connections lowered from \(limits.maximumConnections) to \(fitted.maximumConnections): the daemon may \
            open \(descriptors) descriptors and keeps \(spare) for its state and provider runs
            """)
        return fitted
    }

    /// Creates the state directory if need be and checks that the daemon can write there, so a bad `--state-dir`
    /// is one plain sentence ("… is not a directory", "… Permission denied") rather than Foundation's or SQLite's.
    static func prepareStateDirectory(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw StartError(description: "the state directory \(path) is not a directory")
            }
        } else {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw StartError(description: "cannot create the state directory \(path): \(plainReason(error))")
            }
        }
        guard access(path, W_OK | X_OK) == 0 else {
            let reason = String(cString: strerror(errno))
            throw StartError(description: "cannot write the state directory \(path): \(reason)")
        }
    }

    /// The POSIX reason beneath a Foundation file error ("Permission denied", "Not a directory"), else the error.
    static func plainReason(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(truncatingIfNeeded: underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(truncatingIfNeeded: nsError.code)))
        }
        switch CocoaError.Code(rawValue: nsError.code) {
        case .fileWriteNoPermission, .fileReadNoPermission: return "Permission denied"
        case .fileWriteFileExists: return "a file is in the way"
        case .fileNoSuchFile, .fileReadNoSuchFile: return "No such file or directory"
        case .fileWriteVolumeReadOnly: return "Read-only file system"
        default: return nsError.localizedDescription
        }
    }

    func loadManifests() -> ManifestSet {
        let manifests = ManifestLoader.load(directories: options.providerDirectories)
        // A default directory may well be absent (a host with manifests only in /etc); one named on the command line
        // is a mistake worth a warning, as is a daemon with nothing to serve.
        let named = options.providerDirectories != ManifestLoader.defaultDirectories
        for directory in manifests.directories where directory.state == .missing {
            if named {
                logger.warning("provider directory \(directory.path) does not exist")
            } else {
                logger.info("provider directory \(directory.path) does not exist")
            }
        }
        if manifests.kinds.isEmpty {
            let paths = options.providerDirectories.joined(separator: ", ")
            logger.warning("no provider manifests in \(paths): no widget can be added until one is installed")
        }
        for error in manifests.errors {
            logger.error("manifest rejected: \(error)", metadata: [
                JournalField.messageID: JournalMessageID.manifestInvalid.metadataValue,
                JournalField.failureReason: "\(error)"])
        }
        return manifests
    }

    /// Loads state, listens, tells systemd READY=1, and runs until SIGTERM. Returns the exit status.
    public func run() throws -> Int32 {
        let settings = try Self.loadSettings(options.configPath)
        // First: a daemon that cannot keep its state stops with that one sentence, before anything else is said.
        try Self.prepareStateDirectory(options.stateDirectory)
        let manifests = loadManifests()
        let stateURL = URL(fileURLWithPath: options.stateDirectory, isDirectory: true)
        let store: StateStore
        let madePrivate = PrivateStateFiles.apply(to: stateURL)
        if madePrivate > 0 {
            logger.notice("\(madePrivate) file(s) in \(stateURL.path) were open to others; now to the daemon only")
        }
        do {
            // Checkpoints on the store's own thread: one inside a commit stalls the loop for two fsyncs and the page
            // copies, which would delay entry changes and runs alike.
            store = try StateStore(directory: stateURL,
                                   options: StateStoreOptions(backgroundCheckpointEveryCommits: 100,
                                                              acceptStateLoss: options.acceptStateLoss))
        } catch StateStoreError.stateLost(let loss) {
            throw StartError(description: loss.description, messageID: .stateLost)
        } catch {
            throw StartError(description: "cannot open the state in \(options.stateDirectory): \(error)")
        }
        if let loss = store.acceptedStateLoss { acceptedStateLoss(loss) }
        try checkWidgetsSinceCleanStop(store)
        if let recovery = store.runStartRecovery { logger.warning("\(recovery)") }
        self.store = store
        Self.logLatencySlice(ThreadScheduling.requestLatencySlice(), to: logger)
        let images = ImageStore(stateDirectory: stateURL,
                                runtimeDirectory: URL(fileURLWithPath: options.runtimeDirectory, isDirectory: true))
        var imagesReady = true
        do {
            try images.prepare()
        } catch {
            imagesReady = false
            let text = "cannot make the image directories \(images.imagesDirectory.path) and "
                + "\(images.runsDirectory.path) (\(error)); runs get no image directory, and entries no images"
            logger.warning("\(text)")
        }
        let runner = ProviderRunner(loop: EventLoopRunnerAdapter(loop: loop),
                                    sandbox: try makeSandbox(runRoot: imagesReady ? images.runsDirectory.path : nil))
        self.runner = runner
        useCgroups(on: runner)
        do {
            try runner.adoptOrphans { [logger] killed, reaped in
                logger.info("killed \(killed) process(es) that finished runs left behind; reaped \(reaped)")
            }
        } catch {
            logger.warning("""
                cannot adopt what providers orphan (\(error)): a process a provider moves out of its process group \
                (setsid, a double fork) may outlive its run
                """)
        }
        var serviceRef: WidgetService?
        let timer = try EventLoopWakeupTimer(loop: loop) { serviceRef?.tick() }
        let activated = (try? ListenFDs.descriptors()) ?? []
        let socketPath = options.socketPath ?? options.runtimeDirectory + "/control.socket"
        let service = WidgetService(
            options: WidgetService.Options(stateDirectory: stateURL,
                                           socketPath: activated.isEmpty ? socketPath : "(socket activation)"),
            settings: settings, manifests: manifests, clock: clock, launcher: SpawningLauncher(runner: runner),
            timer: timer, store: store, images: imagesReady ? images : nil, logger: logger)
        serviceRef = service
        self.service = service
        // Taken away before anything runs: a death from here on is not a clean stop.
        let lastStopWasClean = unlink(cleanStopMarker) == 0
        do {
            try service.load(lastStopWasClean: lastStopWasClean)
        } catch {
            throw StartError(description: "cannot load the state in \(options.stateDirectory): \(error)")
        }
        service.flush()
        HeapTuning.settleAfterLoading()

        runner.childDescriptorLimit = ControlServer.raiseDescriptorLimit()
        let authorization = Authorization.forCurrentProcess()
        handler = DaemonControlHandler(service: service, authorization: authorization,
                                       version: options.version, logger: logger)
        let limits = try loadControlLimits(maximumConcurrentRuns: settings.maxConcurrentRuns)
        var serverConfiguration = ControlServer.Configuration(version: options.version, limits: limits,
                                                              adminGroupID: authorization.adminGroupID)
        // The daemon starts nothing but providers: a peer below it in the process tree is one of theirs.
        serverConfiguration.providerAncestor = getpid()
        server = ControlServer(loop: loop, handler: handler, configuration: serverConfiguration, logger: logger)
        do {
            if let fd = activated.first {
                try server.adopt(listeningSocket: fd)
            } else {
                try FileManager.default.createDirectory(atPath: options.runtimeDirectory,
                                                        withIntermediateDirectories: true)
                try server.listen(path: socketPath)
            }
        } catch {
            throw StartError(description: "cannot listen on \(socketPath): \(error)")
        }

        sources.append(try loop.addSignal(SIGTERM) { [unowned self] _ in stop() })
        sources.append(try loop.addSignal(SIGINT) { [unowned self] _ in stop() })
        sources.append(try loop.addSignal(SIGHUP) { [unowned self] _ in reload() })
        sources.append(try loop.addWallClockChangeWatcher { [unowned self] in self.service.tick() })
        idleFlush = try loop.addDefer { [unowned self] in flushState() }
        try idleFlush.setPriority(EventSource.idlePriority)
        try idleFlush.setEnabled(.off)
        sources.append(idleFlush)
        // Its dispatch is the point: the turn it makes ends in `endOfTurn`, which writes.
        writeTimer = try loop.addTimer(clock: .boottime, at: 0, accuracy: 1) {}
        try writeTimer.setEnabled(.off)
        sources.append(writeTimer)
        if testFaults {
            sources.append(try loop.addSignal(SIGUSR1) { [unowned self] _ in wedge() })
            sources.append(try loop.addSignal(SIGUSR2) { [unowned self] _ in readTestClockOffset() })
        }
        try loop.enableWatchdog()

        let status = service.statusLine(at: clock.now())
        _ = try? notifier.ready(status: status)
        let listening = activated.isEmpty ? socketPath : "the socket systemd passed"
        logger.notice("started: \(status); listening on \(listening)",
                      metadata: [JournalField.messageID: JournalMessageID.started.metadataValue])
        let turnEnd = loop.addIterationHook { [unowned self] in endOfTurn() }
        defer { turnEnd.cancel() }
        return try loop.run()
    }

    /// After every loop turn: have the changes written, and keep STATUS= current (at most once a second, so a burst
    /// of events costs one status computation).
    ///
    /// `WritePacer` decides when: at an idle moment (an idle-priority defer source, so a provider's exit is never
    /// handled after another run's commit), and while changes keep coming, at most once per its interval, so a burst
    /// of runs shares one commit; at once when a client's reply waits for the commit of its change; on the backoff's
    /// timer while writes fail, so a full disk is tried a few times a minute and the loop sleeps in between. A run's
    /// spent token is journaled before its spawn.
    private func endOfTurn() {
        let now = clock.now()
        switch writePacer.endOfTurn(at: now.monotonic, hasUnwrittenChanges: service.hasUnwrittenChanges,
                                    repliesWaiting: service.hasRepliesAwaitingWrite,
                                    retryAt: service.stateWriteRetryAt) {
        case .nothing:
            break
        case .write:
            flushState()
        case .writeWhenIdle:
            if idleFlush.enablement == .off { try? idleFlush.setEnabled(.oneShot) }
        case .wait(let until):
            // An armed timer is moved only earlier: a write allowed sooner than a backoff's retry (a client's attempt
            // succeeded) must not wait for it.
            let usec = UInt64(saturating: max(0, until) * 1_000_000)
            if writeTimer.enablement == .off || usec < writeTimerDue {
                try? writeTimer.schedule(at: usec)
                writeTimerDue = usec
            }
        }
        guard service.revision != lastStatusRevision, now.monotonic - lastStatusTime >= 1 || stopping else { return }
        lastStatusRevision = service.revision
        lastStatusTime = now.monotonic
        let status = service.statusLine(at: now)
        if status != lastStatus {
            lastStatus = status
            _ = try? notifier.status(status)
        }
    }

    private func flushState() {
        // A write at the idle moment asked for earlier would come right after this one, under the pacer's interval:
        // when no idle moment came within its delay, the pacer wrote without one, and the idle write is moot.
        if idleFlush.enablement != .off { try? idleFlush.setEnabled(.off) }
        service.flush()
        writePacer.wrote(at: clock.now().monotonic, remaining: service.hasUnwrittenChanges)
    }

    /// SIGHUP / `systemctl reload`: re-read the configuration and the manifests; state is kept.
    private func reload() {
        _ = try? notifier.reloading(status: "reloading configuration and manifests")
        // The manifests are re-read even when the configuration is bad, so a good new kind does not wait for an
        // unrelated fix; one line then says what was and was not reloaded, never "reloaded configuration".
        var configurationProblem: Error?
        do {
            let settings = try Self.loadSettings(options.configPath)
            let limits = try loadControlLimits(maximumConcurrentRuns: settings.maxConcurrentRuns)
            service.replaceSettings(settings)
            server.replaceLimits(limits)
        } catch {
            configurationProblem = error
        }
        service.replaceManifests(loadManifests())
        handler.manifestsChanged()
        let status = service.statusLine(at: clock.now())
        let kinds = service.manifests.kinds.count
        if let configurationProblem {
            logger.error("""
                configuration not reloaded, keeping the previous one: \(configurationProblem); manifests reloaded: \
                \(Counted.phrase(kinds, "kind"))
                """)
        } else {
            logger.notice("reloaded configuration and manifests: \(Counted.phrase(kinds, "kind"))",
                          metadata: [JournalField.messageID: JournalMessageID.reloaded.metadataValue])
        }
        _ = try? notifier.ready(status: status)
    }

    /// SIGTERM: stop in-flight runs (their whole process groups are killed; they stay pending, their tokens spent),
    /// save, end watch streams, exit 0.
    private func stop() {
        guard !stopping else { return }
        stopping = true
        _ = try? notifier.stopping(status: "stopping")
        let running = service.running.count
        logger.notice("stopping: \(Counted.phrase(running, "run")) in flight \(running == 1 ? "is" : "are") ended",
                      metadata: [JournalField.messageID: JournalMessageID.stopping.metadataValue])
        service.terminateRuns()
        // A run ended while its spawn was still queued has its child killed when the spawn is done: wait for that
        // here, or the child would start after the daemon is gone.
        runner.settleQueuedSpawns()
        // What the ended runs left outside their process groups; the stop timeout is the outer bound.
        runner.killLeftovers(waitingUpTo: 2)
        service.flush()
        if let failure = service.stateWriteFailure {
            let text = "stopping without writing the state (\(failure.cause)): the changes since writes began to "
                + "fail are lost"
            logger.error("\(text)", metadata: [
                             JournalField.messageID: JournalMessageID.stateNotWritten.metadataValue,
                             JournalField.failureReason: .string(failure.cause)])
        } else {
            checkpointOnStop()
        }
        // After the last write: the runs in flight were ended by this stop, not by a death. With every change
        // written, the marker also says how many widgets the database holds, which the next start checks.
        let widgets = service.stateWriteFailure == nil ? try? store.widgetCount() : nil
        writeCleanStopMarker(widgets: widgets)
        handler.endStreams()
        server.stop()
        loop.exit(code: 0)
    }

    /// A file in the state directory that says the daemon's last stop was clean (SIGTERM, the runs in flight ended
    /// by it): made at the end of a stop, removed at start. A start that does not find it follows a death (a crash, a
    /// watchdog abort, SIGKILL), and the runs then in flight are counted against their widgets.
    private var cleanStopMarker: String { options.stateDirectory + "/stopped-cleanly" }

    /// Makes the clean-stop marker, holding `widgets N` when the count is known.
    private func writeCleanStopMarker(widgets: Int?) {
        let descriptor = open(cleanStopMarker, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        if let widgets {
            let text = Array("widgets \(widgets)\n".utf8)
            _ = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        }
        close(descriptor)
    }

    /// Refuses to start (unless `acceptStateLoss`) when the database holds fewer widgets than the clean-stop marker
    /// says it held at the last stop. The marker stays until a start goes on, so a refused start is refused again.
    private func checkWidgetsSinceCleanStop(_ store: StateStore) throws {
        guard let text = try? String(contentsOfFile: cleanStopMarker, encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("widgets ") }),
              let atStop = Int(line.dropFirst("widgets ".count)), atStop >= 0
        else { return }
        let now: Int
        do {
            now = try store.widgetCount()
        } catch {
            throw StartError(description: "cannot count the widgets in \(store.path): \(error)")
        }
        guard let loss = StateLoss.sinceCleanStop(databasePath: store.path, markerPath: cleanStopMarker,
                                                  widgetsAtStop: atStop, widgetsNow: now)
        else { return }
        guard options.acceptStateLoss else { throw StartError(description: loss.description, messageID: .stateLost) }
        acceptedStateLoss(loss)
    }

    private func acceptedStateLoss(_ loss: StateLoss) {
        logger.error("\(loss.path) has lost state: \(loss.evidence); going on without it (--accept-state-loss)",
                     metadata: [JournalField.messageID: JournalMessageID.stateLost.metadataValue])
    }

    /// Leaves the whole state in `state.sqlite` (`StateStore.checkpointTruncatingWAL`): a WAL damaged or deleted
    /// while the daemon is stopped then takes nothing with it. If it cannot, the WAL keeps the state, which the next
    /// start reads as always.
    private func checkpointOnStop() {
        do {
            let frames = try store.checkpointTruncatingWAL()
            logger.debug("state checkpointed: \(frames) WAL frame(s) folded into \(store.path), the WAL emptied")
        } catch {
            logger.warning("cannot fold the WAL into the database at stop (\(error)); the state stays in the WAL")
        }
    }

    private func wedge() {
        logger.warning("test fault: wedging the event loop (SIGUSR1 with WIDGET_SCHEDULER_TEST_FAULTS=1)")
        while true { sleep(3_600) }
    }

    private func readTestClockOffset() {
        let path = options.runtimeDirectory + "/test-clock-offset"
        let text = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let offset = text.flatMap(Double.init) else {
            logger.warning("test fault: \(path) holds no number of seconds")
            return
        }
        clock.wallOffset = offset
        logger.notice("test fault: wall clock offset set to \(offset) s")
        service.tick()
    }
}
