import Foundation
import Glibc
import WidgetProtocol
import WidgetSchedulerTestKit

/// A local user attacking the control socket from another uid (`setpriv --reuid`), as a small Python program: the
/// test process is root, which the daemon's limits let through. It reports what it did as JSON lines in its output
/// file: `{"event": "ready", …}` once its attack is in place, then, after `finish()` (a stop file it waits for), what
/// became of its connections, `{"event": "done", …}`.
///
/// Modes:
/// - `connect N`: opens N connections and calls `GetInfo` on each: a held one is answered, a refused one is told
///   why and closed. Then waits up to its deadline for the daemon to close every held one, and reports when and why.
/// - `partial N BYTES`: opens N connections, each sending BYTES of a message without its end, and waits for them to
///   be closed.
/// - `watch N`: opens N `Watch` streams (with a small receive buffer) and never reads; it reports (`progress`) each
///   connection the daemon closes, seen through POLLRDHUP without reading; at the end it reads what is left.
/// - `oneway N METHOD`: sends N `oneway` calls of METHOD in one write, then a `GetInfo` whose reply comes once the
///   burst is through, and reports how long that took.
/// - `unread N METHOD CAP`: opens N connections (with a small receive buffer) and pushes calls of METHOD into each,
///   reading nothing, until the daemon stops taking them or CAP bytes went in; reports how many calls went in. At
///   the end it reads, finishing the call each connection was cut off in, and counts the replies.
/// - `options N KIND PARAMETER same|distinct`: N `Options` calls at once, each on its own connection, all with the
///   same search text or each its own, and reports what they got once all are answered.
final class HostileUser {
    let uid: UInt32
    let mode: [String]
    private let output: URL
    private let stopFile: URL
    private let process: ChildProcess

    /// Starts the program as `uid` (no groups) against the daemon of `world`.
    init(world: DaemonWorld, uid: UInt32, mode: [String], deadline: Double = 60) throws {
        self.uid = uid
        self.mode = mode
        let name = "hostile-\(uid)-\(mode[0])-\(UUID().uuidString.prefix(6))"
        let script = world.root.appendingPathComponent("\(name).py")
        output = world.root.appendingPathComponent("\(name).out")
        stopFile = world.root.appendingPathComponent("\(name).stop")
        try CloseOnExecFile.write(Self.program, to: script.path, mode: 0o644)
        // Enough descriptors for its connections; setpriv keeps the limits it was given.
        let limit = (Int(mode.dropFirst().first ?? "") ?? 0) + 64
        let input = try Descriptor.null()
        defer { close(input) }
        let log = try Descriptor.openForWriting(output.path, append: true)
        defer { close(log) }
        // Killed and reaped with this object, when it has not ended by then (`ChildProcess`).
        process = try ChildProcess(
            ["prlimit", "--nofile=\(limit):\(limit)", "--", "/usr/bin/setpriv", "--reuid=\(uid)",
             "--regid=\(uid)", "--clear-groups", "/usr/bin/python3", script.path, world.socketPath, stopFile.path,
             String(deadline)] + mode,
            environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"], input: input, output: log, error: log)
    }

    /// The JSON lines written so far.
    var reports: [[String: JSONValue]] {
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { JSONValue(jsonText: String($0))?.objectValue }
    }

    /// The first report of `event`, waiting for it (the program fails the test when it dies first).
    func report(_ event: String, timeout: Double = 120) throws -> [String: JSONValue] {
        try eventually("\(mode) as uid \(uid): its \"\(event)\" report; output:\n\(rawOutput)", timeout: timeout) {
            if let found = reports.first(where: { $0["event"]?.stringValue == event }) { return found }
            if hasExited { throw TestFailure("\(mode) as uid \(uid) exited early:\n\(rawOutput)") }
            return nil
        }
    }

    /// Tells the program to finish and returns its `done` report.
    func finish(timeout: Double = 120) throws -> [String: JSONValue] {
        FileManager.default.createFile(atPath: stopFile.path, contents: nil)
        return try report("done", timeout: timeout)
    }

    var rawOutput: String { ((try? String(contentsOf: output, encoding: .utf8)) ?? "").suffix(3000).description }

    private var hasExited: Bool {
        !process.isRunning
    }

    static let program = #"""
        import json, os, select, socket, sys, time

        path, stop, deadline = sys.argv[1], sys.argv[2], float(sys.argv[3])
        mode, args = sys.argv[4], sys.argv[5:]
        started = time.monotonic()

        def report(event, **fields):
            fields["event"] = event
            print(json.dumps(fields), flush=True)

        def call(method, **fields):
            fields["method"] = method
            return json.dumps(fields).encode() + b"\0"

        def connect():
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            return s

        def messages(data):
            out = []
            for part in data.split(b"\0")[:-1]:
                try:
                    out.append(json.loads(part))
                except ValueError:
                    out.append({"undecodable": len(part)})
            return out

        def read_until_reply_or_end(s, limit):
            """Reads one message or the end, whichever comes first; returns (message or None, ended)."""
            data = b""
            s.settimeout(limit)
            try:
                while b"\0" not in data:
                    chunk = s.recv(65536)
                    if not chunk:
                        return (messages(data + b"\0")[0] if data else None, True)
                    data += chunk
            except OSError:
                return (None, True)
            return (messages(data)[0], False)

        def wait_for_stop():
            while not os.path.exists(stop) and time.monotonic() - started < deadline:
                time.sleep(0.05)

        def wait_for_ends(held, since):
            """Waits (until the deadline) for the daemon to close each held connection; returns the seconds each took
            from `since`, the error names it was told, and how many stayed open."""
            pending = {s.fileno(): s for s in held}
            closed_after, errors = [], {}
            while pending and time.monotonic() - started < deadline:
                ready, _, _ = select.select(list(pending.values()), [], [], 0.1)
                for s in ready:
                    try:
                        data = s.recv(1 << 20)
                    except OSError:
                        data = b""
                    if data:
                        for m in messages(data):
                            name = m.get("error", "reply").split(".")[-1]
                            errors[name] = errors.get(name, 0) + 1
                        continue
                    closed_after.append(round(time.monotonic() - since, 3))
                    del pending[s.fileno()]
            return closed_after, errors, len(pending)

        if mode == "connect":
            count = int(args[0])
            held, refused = [], {}
            for _ in range(count):
                try:
                    s = connect()
                except OSError as e:
                    refused["connect: " + e.strerror] = refused.get("connect: " + e.strerror, 0) + 1
                    continue
                try:
                    s.sendall(call("org.varlink.service.GetInfo"))
                except OSError:
                    pass  # refused before the call went out: the reason is in the socket
                reply, ended = read_until_reply_or_end(s, 30)
                if reply is not None and "error" not in reply and not ended:
                    held.append(s)
                else:
                    name = (reply or {}).get("error", "closed without a word").split(".")[-1]
                    parameters = (reply or {}).get("parameters", {})
                    if "uid" in parameters:
                        name += " (uid %d)" % parameters["uid"]
                    if "reserved" in parameters:
                        name += " (reserve)"
                    refused[name] = refused.get(name, 0) + 1
                    s.close()
            since = time.monotonic()
            report("ready", held=len(held), refused=refused)
            closed_after, errors, still_open = wait_for_ends(held, since)
            wait_for_stop()
            report("done", closed_after=closed_after, errors=errors, still_open=still_open)

        elif mode == "partial":
            count, size = int(args[0]), int(args[1])
            body = b'{"method":"io.widgetscheduler.Scheduler.List","parameters":{"pad":"' + b"x" * size
            held, failed = [], 0
            for _ in range(count):
                try:
                    s = connect()
                    s.setblocking(False)
                    held.append(s)
                except OSError:
                    failed += 1
            since = time.monotonic()
            # Pushes each message in as far as the daemon takes it, until all is sent or nothing moves for 2 s.
            offsets = {s.fileno(): 0 for s in held}
            sockets = {s.fileno(): s for s in held}
            last_progress = time.monotonic()
            while time.monotonic() - last_progress < 2:
                writable = [sockets[fd] for fd, offset in offsets.items() if offset < len(body)]
                if not writable:
                    break
                _, ready, _ = select.select([], writable, [], 0.2)
                for s in ready:
                    try:
                        offsets[s.fileno()] += s.send(body[offsets[s.fileno()]:][:65536])
                        last_progress = time.monotonic()
                    except BlockingIOError:
                        pass
                    except OSError:
                        offsets[s.fileno()] = len(body)
            report("ready", held=len(held), sent=sum(offsets.values()), failed=failed)
            closed_after, errors, still_open = wait_for_ends(held, since)
            wait_for_stop()
            report("done", closed_after=closed_after, errors=errors, still_open=still_open)

        elif mode == "watch":
            count = int(args[0])
            watchers = []
            for _ in range(count):
                s = connect()
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                s.sendall(call("io.widgetscheduler.Scheduler.Watch", parameters={}, more=True))
                watchers.append(s)
            report("ready", watchers=len(watchers))
            poller = select.poll()
            for s in watchers:
                poller.register(s, select.POLLRDHUP)
            closed = set()
            while not os.path.exists(stop) and time.monotonic() - started < deadline:
                for fd, events in poller.poll(100):
                    if events & (select.POLLRDHUP | select.POLLHUP) and fd not in closed:
                        closed.add(fd)
                        poller.unregister(fd)
                        report("progress", closed=len(closed))
            last = {}
            events = 0
            for s in watchers:
                s.setblocking(False)
                data = b""
                try:
                    while True:
                        chunk = s.recv(1 << 20)
                        if not chunk:
                            break
                        data += chunk
                except OSError:
                    pass
                received = messages(data)
                events += sum(1 for m in received if m.get("continues"))
                if received:
                    name = received[-1].get("error", "an event").split(".")[-1]
                    last[name] = last.get(name, 0) + 1
            report("done", closed=len(closed), last=last, events_read=events)

        elif mode == "options":
            count, kind, parameter, searches = int(args[0]), args[1], args[2], args[3]
            sockets = []
            for index in range(count):
                s = connect()
                search = "same" if searches == "same" else "q%d" % index
                s.sendall(call("io.widgetscheduler.Scheduler.Options",
                               parameters={"kind": kind, "parameter": parameter, "search": search}))
                sockets.append(s)
            start = time.monotonic()
            outcomes = {}
            for s in sockets:
                reply, ended = read_until_reply_or_end(s, deadline)
                name = "no reply" if reply is None else reply.get("error", "options").split(".")[-1]
                outcomes[name] = outcomes.get(name, 0) + 1
            report("ready", outcomes=outcomes, answered_after=round(time.monotonic() - start, 3))
            wait_for_stop()
            report("done")

        elif mode == "unread":
            count, method, cap = int(args[0]), args[1], int(args[2])
            one = call("io.widgetscheduler.Scheduler." + method, parameters={})
            sockets = []
            for _ in range(count):
                s = connect()
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                s.setblocking(False)
                sockets.append(s)
            # Pushes calls into each connection, reading nothing, until the daemon stops taking them (nothing moves
            # for 2 s) or cap bytes went in.
            sent = {s.fileno(): 0 for s in sockets}
            # Connections the daemon closed while calls were pushed (EPIPE, ECONNRESET): reported, not a crash.
            dropped = set()
            last_progress = time.monotonic()
            while time.monotonic() - last_progress < 2:
                writable = [s for s in sockets if sent[s.fileno()] < cap and s.fileno() not in dropped]
                if not writable:
                    break
                _, ready, _ = select.select([], writable, [], 0.2)
                for s in ready:
                    offset = sent[s.fileno()] % len(one)
                    try:
                        sent[s.fileno()] += s.send((one * 64)[offset:])
                        last_progress = time.monotonic()
                    except BlockingIOError:
                        pass
                    except (BrokenPipeError, ConnectionResetError):
                        dropped.add(s.fileno())
            stalled = sum(1 for s in sockets if sent[s.fileno()] < cap and s.fileno() not in dropped)
            report("ready", stalled=stalled, dropped=len(dropped), sent_bytes=sum(sent.values()),
                   calls=sum((n + len(one) - 1) // len(one) for n in sent.values()))
            wait_for_stop()
            # Now reads, finishing the call each connection was cut off in: every call sent must be answered.
            answered, errors, short = 0, {}, 0
            for s in sockets:
                fd = s.fileno()
                rest = (len(one) - sent[fd] % len(one)) % len(one)
                expected = (sent[fd] + rest) // len(one)
                replies, data = 0, b""
                until = time.monotonic() + 60
                while replies < expected and time.monotonic() < until:
                    readable, writable, _ = select.select([s], [s] if rest else [], [], 0.2)
                    if writable:
                        try:
                            rest -= s.send(one[len(one) - rest:])
                        except BlockingIOError:
                            pass
                    if readable:
                        try:
                            chunk = s.recv(1 << 20)
                        except BlockingIOError:
                            continue
                        if not chunk:
                            break
                        data += chunk
                        end = data.rfind(b"\0")
                        if end < 0:
                            continue
                        complete, data = data[:end + 1], data[end + 1:]
                        for m in messages(complete):
                            replies += 1
                            if "error" in m:
                                name = m["error"].split(".")[-1]
                                errors[name] = errors.get(name, 0) + 1
                answered += replies
                if replies < expected:
                    short += 1
            report("done", answered=answered, errors=errors, short=short)

        elif mode == "oneway":
            count, method = int(args[0]), args[1]
            s = connect()
            burst = call("io.widgetscheduler.Scheduler." + method, parameters={}, oneway=True) * count
            start = time.monotonic()
            s.sendall(burst + call("org.varlink.service.GetInfo"))
            reply, ended = read_until_reply_or_end(s, deadline)
            report("ready", bytes=len(burst), through_after=round(time.monotonic() - start, 3),
                   answered=reply is not None and "error" not in reply)
            wait_for_stop()
            report("done")
        """#
}

/// The daemon's resident memory, from /proc/PID/status: now, and the most it has had (VmHWM).
struct DaemonMemory {
    var residentMB: Double
    var peakMB: Double

    init(pid: pid_t) throws {
        let text = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        func megabytes(_ field: String) throws -> Double {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
                  let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
            else { throw TestFailure("no \(field) in /proc/\(pid)/status") }
            return kilobytes / 1024
        }
        residentMB = try megabytes("VmRSS")
        peakMB = try megabytes("VmHWM")
    }
}
