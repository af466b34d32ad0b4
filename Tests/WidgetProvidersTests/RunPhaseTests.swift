import Testing
@testable import WidgetProviders

/// The run's one transition function: every phase against every event, and the runner's reasons for ending a run.
@Suite("Run phases")
struct RunPhaseTests {
    typealias Phase = RunningProcess.Phase
    typealias Stop = RunningProcess.Stop

    struct Transition: CustomTestStringConvertible, Sendable {
        var from: Phase
        var event: Phase.Event
        var to: Phase
        var action: Phase.Action
        var testDescription: String { "\(from) + \(event) -> \(to), \(action)" }
    }

    static let transitions: [Transition] = [
        // Launching: the spawn is queued on the sandbox's thread, or done here.
        Transition(from: .launching, event: .queued, to: .spawning(due: []), action: .none),
        Transition(from: .launching, event: .spawned, to: .running, action: .none),
        Transition(from: .launching, event: .finished, to: .finished, action: .complete),
        // Spawning: what comes due waits for the child.
        Transition(from: .spawning(due: []), event: .streamWatchDue, to: .spawning(due: .lasts), action: .none),
        Transition(from: .spawning(due: []), event: .cancelled, to: .spawning(due: .cancelled), action: .none),
        Transition(from: .spawning(due: .lasts), event: .timedOut, to: .spawning(due: [.lasts, .timedOut]),
                   action: .none),
        Transition(from: .spawning(due: []), event: .exited, to: .spawning(due: []), action: .none),
        Transition(from: .spawning(due: []), event: .spawned, to: .running, action: .none),
        Transition(from: .spawning(due: .lasts), event: .spawned, to: .lasting, action: .carryOut(.lasts)),
        Transition(from: .spawning(due: [.lasts, .cancelled]), event: .spawned, to: .running,
                   action: .carryOut([.lasts, .cancelled])),
        Transition(from: .spawning(due: .timedOut), event: .spawned, to: .running, action: .carryOut(.timedOut)),
        Transition(from: .spawning(due: .cancelled), event: .finished, to: .finished, action: .complete),
        // Running: the child is known.
        Transition(from: .running, event: .streamWatchDue, to: .lasting, action: .watch),
        Transition(from: .running, event: .cancelled, to: .running, action: .kill),
        Transition(from: .running, event: .timedOut, to: .running, action: .terminate),
        Transition(from: .running, event: .exited, to: .draining(lasted: false), action: .drain),
        Transition(from: .running, event: .spawned, to: .running, action: .none),
        Transition(from: .running, event: .finished, to: .finished, action: .complete),
        // Lasting: streams and exit watched.
        Transition(from: .lasting, event: .cancelled, to: .lasting, action: .kill),
        Transition(from: .lasting, event: .timedOut, to: .lasting, action: .terminate),
        Transition(from: .lasting, event: .exited, to: .draining(lasted: true), action: .drain),
        Transition(from: .lasting, event: .streamWatchDue, to: .lasting, action: .none),
        // Draining: the child is gone; what it started may not be.
        Transition(from: .draining(lasted: false), event: .cancelled, to: .draining(lasted: false), action: .kill),
        Transition(from: .draining(lasted: true), event: .timedOut, to: .draining(lasted: true), action: .none),
        Transition(from: .draining(lasted: false), event: .exited, to: .draining(lasted: false), action: .none),
        Transition(from: .draining(lasted: false), event: .streamWatchDue, to: .draining(lasted: false),
                   action: .none),
        Transition(from: .draining(lasted: true), event: .finished, to: .finished, action: .complete),
        // Finished: nothing more happens, and the completion is not delivered twice.
        Transition(from: .finished, event: .finished, to: .finished, action: .none),
        Transition(from: .finished, event: .cancelled, to: .finished, action: .none),
        Transition(from: .finished, event: .timedOut, to: .finished, action: .none),
        Transition(from: .finished, event: .exited, to: .finished, action: .none),
    ]

    @Test("each phase takes each event to one phase and one action", arguments: transitions)
    func transition(_ case: Transition) {
        let (phase, action) = `case`.from.after(`case`.event)
        #expect(phase == `case`.to)
        #expect(action == `case`.action)
    }

    @Test("a run has lasted once it lasted, even after its child's exit; never when its child ended sooner")
    func lasting() {
        #expect(Phase.lasting.hasLasted)
        #expect(Phase.draining(lasted: true).hasLasted)
        #expect(!Phase.draining(lasted: false).hasLasted)
        #expect(!Phase.running.hasLasted)
        #expect(!Phase.spawning(due: .lasts).hasLasted)
        #expect(!Phase.finished.hasLasted)
    }

    @Test("the child runs only between its take-over and its exit")
    func childRuns() {
        let phases: [Phase] = [.launching, .spawning(due: []), .running, .lasting, .draining(lasted: true), .finished]
        #expect(phases.filter(\.childRuns) == [.running, .lasting])
    }

    @Test("the runner's own failure outranks a timeout, which outranks the output limit, which outranks a cancel",
          arguments: [
              (Stop.cancelled, Stop.timedOut, Stop.timedOut),
              (.timedOut, .cancelled, .timedOut),
              (.outputTooLarge, .timedOut, .timedOut),
              (.timedOut, .outputTooLarge, .timedOut),
              (.cancelled, .outputTooLarge, .outputTooLarge),
              (.timedOut, .failed(.spawn(errno: 5, message: "m")), .failed(.spawn(errno: 5, message: "m"))),
              (.failed(.spawn(errno: 5, message: "first")), .failed(.spawn(errno: 9, message: "second")),
               .failed(.spawn(errno: 5, message: "first"))),
              (.cancelled, .cancelled, .cancelled),
          ])
    func stopMerging(_ kept: Stop, _ newer: Stop, _ expected: Stop) {
        #expect(kept.merged(with: newer) == expected)
    }
}
