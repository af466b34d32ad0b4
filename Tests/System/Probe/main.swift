// systemdkit-probe: a tiny Type=notify service built on SystemdKit, used by the system-test harness to prove the
// libsystemd layer under a real systemd: READY/STATUS, journal fields, the sd-event watchdog, socket activation,
// SIGHUP reload and SIGTERM stop. It is a test tool, never installed.
//
//   systemdkit-probe [--wedge-on-usr1]
//
// Signals: SIGHUP reloads (RELOADING=1 ... READY=1), SIGTERM/SIGINT stop (STOPPING=1, exit 0), SIGUSR1 wedges the
// loop (to prove the watchdog) when --wedge-on-usr1 is given. Each passed listening socket answers every connection
// with "probe <fd name>\n".
import Glibc
import Logging
import SystemdKit

let identifier = "systemdkit-probe"
let wedgeOnUSR1 = CommandLine.arguments.contains("--wedge-on-usr1")

do {
    try EventLoop.blockSignals([SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGUSR1])
    LoggingBootstrap.bootstrap(identifier: identifier)
    var logger = Logger(label: identifier)
    logger[metadataKey: "probe_instance"] = "\(getpid())"

    let loop = try EventLoop()
    let notifier = Notifier()
    let watchdogEnabled = try loop.enableWatchdog()
    var reloads = 0
    var sources: [EventSource] = []

    let listeners = try ListenFDs.named()
    for listener in listeners {
        let source = try loop.addIO(fd: listener.fd) { _ in
            let connection = accept(listener.fd, nil, nil)
            guard connection >= 0 else { return }
            let reply = "probe \(listener.name)\n"
            _ = write(connection, reply, reply.utf8.count)
            close(connection)
            logger.info("answered a connection", metadata: ["listen_fd_name": "\(listener.name)"])
        }
        sources.append(source)
    }

    func stop(_ info: SignalInfo) {
        _ = try? notifier.stopping(status: "stopping on \(signalName(info.signal))")
        logger.notice("stopping", metadata: ["signal": "\(signalName(info.signal))"])
        loop.exit(code: 0)
    }
    sources.append(try loop.addSignal(SIGTERM, stop))
    sources.append(try loop.addSignal(SIGINT, stop))
    sources.append(
        try loop.addSignal(SIGHUP) { _ in
            _ = try? notifier.reloading()
            reloads += 1
            logger.notice("reloaded", metadata: ["reload_count": "\(reloads)"])
            _ = try? notifier.ready(status: "reloaded \(reloads) times")
        })
    sources.append(
        try loop.addSignal(SIGUSR1) { _ in
            guard wedgeOnUSR1 else { return }
            logger.warning("wedging the event loop on purpose")
            while true {
                pause()
            }
        })

    let status = "probe ready, \(listeners.count) listening sockets, watchdog \(watchdogEnabled ? "on" : "off")"
    logger.notice(
        "probe started",
        metadata: [
            "MESSAGE_ID": "a8b46379193343349ec6002bb1660b6e",
            "probe.kind": "harness",
            "listen_fds": "\(listeners.count)",
            "watchdog_usec": "\(Notifier.watchdogInterval ?? 0)",
        ])
    try notifier.ready(status: status)
    let code = try loop.run()
    withExtendedLifetime(sources) {}
    exit(code)
} catch {
    let message = "systemdkit-probe: \(error)\n"
    _ = write(2, message, message.utf8.count)
    exit(1)
}
