extension RunningProcess {
    /// Where a run is, from its launch to its completion. As systemd's timer.c keeps a unit's state: one enum, changed
    /// only through one transition function (`after(_:)`, applied by `RunningProcess.transition(_:)`), with the
    /// runner's reason for ending the run kept beside it as a typed result (`RunningProcess.Stop`).
    enum Phase: Equatable, Sendable, CustomStringConvertible {
        /// `launch()` is preparing the child. A run that ends now completes on the loop's next turn, never from
        /// within `ProviderRunner.start`, whose caller may not hold the handle yet.
        case launching
        /// The spawn is queued on the sandbox's thread: no pid yet. What comes due meanwhile waits in `due`, and is
        /// carried out once the child is known.
        case spawning(due: Due)
        /// The child runs. Its exit is watched through the end of its output (or a pidfd once the output ended).
        case running
        /// The child has run past its stream-watch delay: stdout, stderr and its exit are watched apart, and the
        /// `whenLasting` handlers have been told.
        case lasting
        /// The child has exited; something it started may hold its output open, which is read until the output ends
        /// or `ProcessSpec.drainAfterExit` passes. `lasted` keeps whether the run had lasted, for `whenLasting`.
        case draining(lasted: Bool)
        /// The child is reaped and the completion called, or due on the loop's next turn.
        case finished

        /// What comes due while a spawn is queued: kept, and carried out in this order once the child is known.
        struct Due: OptionSet, Equatable, Sendable {
            let rawValue: UInt8
            /// `cancel()`: the group is killed.
            static let cancelled = Due(rawValue: 1 << 0)
            /// The stream-watch delay passed: the streams and the exit are watched (and, unless the run was
            /// cancelled, the `whenLasting` handlers told).
            static let lasts = Due(rawValue: 1 << 1)
            /// The timeout passed: the group is terminated.
            static let timedOut = Due(rawValue: 1 << 2)
        }

        /// What happens to a run, from the runner, its loop or its owner.
        enum Event: Equatable, Sendable {
            /// The spawn was queued on the sandbox's thread.
            case queued
            /// The child is known and taken over (its spawn succeeded).
            case spawned
            /// The run's stream-watch delay passed (`ProcessSpec.streamWatchDelay`).
            case streamWatchDue
            /// The run's owner called `cancel()`.
            case cancelled
            /// The run's timeout passed.
            case timedOut
            /// The child's exit was seen.
            case exited
            /// The run ends, with whatever result it has: the child is reaped and the completion called.
            case finished
        }

        /// What the run does on a transition, besides taking its new phase.
        enum Action: Equatable, Sendable {
            case none
            /// SIGKILL to the process group.
            case kill
            /// SIGTERM to the process group, and SIGKILL after the grace.
            case terminate
            /// Watch stdout, stderr and the exit apart, then tell the `whenLasting` handlers.
            case watch
            /// Read what the child left; finish once the output ends, or after `ProcessSpec.drainAfterExit`.
            case drain
            /// Carry out what came due while the spawn was queued.
            case carryOut(Due)
            /// Reap the child and deliver the result.
            case complete
        }

        /// The phase a run takes on `event`, and what it does then: the one transition function. An event a phase
        /// has no use for leaves it as it is and does nothing (a timeout after the child's exit, an exit reported
        /// twice, anything after the end).
        func after(_ event: Event) -> (phase: Phase, action: Action) {
            switch (self, event) {
            case (.finished, _):
                return (.finished, .none)
            case (_, .finished):
                return (.finished, .complete)
            case (.launching, .queued):
                return (.spawning(due: []), .none)
            case (.launching, .spawned):
                return (.running, .none)
            case (.spawning(let due), .spawned):
                // A run cancelled while spawning has its streams watched, but lasts for nobody.
                let lasts = due.contains(.lasts) && !due.contains(.cancelled)
                return (lasts ? .lasting : .running, due.isEmpty ? .none : .carryOut(due))
            case (.spawning(let due), .streamWatchDue):
                return (.spawning(due: due.union(.lasts)), .none)
            case (.spawning(let due), .cancelled):
                return (.spawning(due: due.union(.cancelled)), .none)
            case (.spawning(let due), .timedOut):
                return (.spawning(due: due.union(.timedOut)), .none)
            case (.running, .streamWatchDue):
                return (.lasting, .watch)
            case (.running, .cancelled), (.lasting, .cancelled), (.draining, .cancelled):
                // A child that has exited may have left members of its group running the drain.
                return (self, .kill)
            case (.running, .timedOut), (.lasting, .timedOut):
                return (self, .terminate)
            case (.running, .exited):
                return (.draining(lasted: false), .drain)
            case (.lasting, .exited):
                return (.draining(lasted: true), .drain)
            default:
                return (self, .none)
            }
        }

        /// Whether the run's completion is still to come.
        var isLive: Bool { self != .finished }

        /// Whether the run has lasted, so that a `whenLasting` handler is called at once.
        var hasLasted: Bool {
            switch self {
            case .lasting, .draining(lasted: true): true
            default: false
            }
        }

        /// Whether the child runs, as far as the loop knows: started, taken over, and not yet heard to exit.
        var childRuns: Bool { self == .running || self == .lasting }

        var description: String {
            switch self {
            case .launching: "launching"
            case .spawning(let due): "spawning\(due.isEmpty ? "" : "(\(due.rawValue))")"
            case .running: "running"
            case .lasting: "lasting"
            case .draining(let lasted): lasted ? "draining(lasted)" : "draining"
            case .finished: "finished"
            }
        }
    }
}
