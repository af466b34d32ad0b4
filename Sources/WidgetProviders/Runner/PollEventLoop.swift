#if canImport(Glibc)
import Glibc
#endif

/// A `RunnerEventLoop` on poll(2), for `run-provider`, tests and benchmarks: single-threaded, driven by `run(until:)`.
public final class PollEventLoop: RunnerEventLoop {
    fileprivate final class Watch: RunnerEventToken {
        enum Kind {
            case readable(Int32)
            case exit(Int32)
            case timer(deadline: Double)
        }

        let kind: Kind
        var handler: (() -> Void)?
        weak var loop: PollEventLoop?

        init(kind: Kind, handler: @escaping () -> Void, loop: PollEventLoop) {
            self.kind = kind
            self.handler = handler
            self.loop = loop
        }

        func cancel() {
            guard handler != nil else { return }
            handler = nil
            loop?.remove(self)
        }
    }

    private var descriptorWatches: [Watch] = []
    private var timers: [Watch] = []
    private var pollDescriptors: [pollfd] = []

    /// Creates an empty loop.
    public init() {}

    /// Whether any watch or timer is registered, i.e. whether `runOnce` has anything to wait for.
    public var hasWork: Bool { !descriptorWatches.isEmpty || !timers.isEmpty }

    public func watchReadable(fd: Int32, _ handler: @escaping () -> Void) throws -> RunnerEventToken {
        let watch = Watch(kind: .readable(fd), handler: handler, loop: self)
        descriptorWatches.append(watch)
        return watch
    }

    public func watchExit(pidfd: Int32, _ handler: @escaping () -> Void) throws -> RunnerEventToken {
        let watch = Watch(kind: .exit(pidfd), handler: handler, loop: self)
        descriptorWatches.append(watch)
        return watch
    }

    public func schedule(after seconds: Double, _ handler: @escaping () -> Void) throws -> RunnerEventToken {
        let watch = Watch(kind: .timer(deadline: MonotonicClock.now() + max(0, seconds)), handler: handler, loop: self)
        timers.append(watch)
        return watch
    }

    /// Dispatches events until `done()` returns true, or until nothing is left to wait for.
    public func run(until done: () -> Bool) {
        while !done() && hasWork {
            runOnce()
        }
    }

    /// Waits for the next events (at most until the earliest timer) and calls their handlers.
    public func runOnce() {
        var timeoutMilliseconds: Int32 = -1
        if let deadline = timers.lazy.map(\.deadline).min() {
            let remaining = max(0, deadline - MonotonicClock.now())
            timeoutMilliseconds = Int32(min(remaining * 1000, Double(Int32.max)).rounded(.up))
        }
        let watched = descriptorWatches
        pollDescriptors.removeAll(keepingCapacity: true)
        for watch in watched {
            pollDescriptors.append(pollfd(fd: watch.descriptor, events: Int16(POLLIN), revents: 0))
        }
        let ready = poll(&pollDescriptors, nfds_t(pollDescriptors.count), timeoutMilliseconds)
        if ready < 0 && errno != EINTR {
            fatalError("poll failed: \(String(cString: strerror(errno)))")
        }
        fireDueTimers()
        guard ready > 0 else { return }
        for (index, watch) in watched.enumerated() where pollDescriptors[index].revents != 0 {
            guard let handler = watch.handler else { continue }
            switch watch.kind {
            case .exit:
                watch.cancel()
            case .readable:
                // A descriptor closed without cancelling its watch would otherwise spin forever.
                if Int32(pollDescriptors[index].revents) & POLLNVAL != 0 { watch.cancel() }
            case .timer:
                break
            }
            handler()
        }
    }

    private func fireDueTimers() {
        guard !timers.isEmpty else { return }
        let now = MonotonicClock.now()
        guard timers.contains(where: { $0.deadline <= now }) else { return }
        let due = timers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
        for timer in due {
            guard let handler = timer.handler else { continue }
            timer.cancel()
            handler()
        }
    }

    fileprivate func remove(_ watch: Watch) {
        if case .timer = watch.kind {
            if let index = timers.firstIndex(where: { $0 === watch }) { timers.remove(at: index) }
        } else if let index = descriptorWatches.firstIndex(where: { $0 === watch }) {
            descriptorWatches.remove(at: index)
        }
    }
}

extension PollEventLoop.Watch {
    fileprivate var descriptor: Int32 {
        switch kind {
        case .readable(let fd), .exit(let fd): return fd
        case .timer: return -1
        }
    }

    fileprivate var deadline: Double {
        if case .timer(let deadline) = kind { return deadline }
        return .infinity
    }
}
