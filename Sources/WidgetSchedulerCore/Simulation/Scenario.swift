import Foundation

/// A scenario for `widget-scheduler simulate`: widgets, scripted provider responses, requests and clock jumps on a
/// simulated clock. See docs/scheduling.md for the format.
public struct Scenario: Sendable {
    /// One configured widget.
    public struct Widget: Sendable, Hashable {
        public var id: String
        public var kind: String
        public var family: String
        /// Simulated seconds at which it is added.
        public var addedAt: Double

        public init(id: String, kind: String, family: String, addedAt: Double) {
            self.id = id
            self.kind = kind
            self.family = family
            self.addedAt = addedAt
        }
    }

    /// What a provider run of a kind answers, in order; the last one repeats for ever.
    public enum Response: Sendable, Hashable {
        /// Entries at these offsets (seconds after the run's start), with optional relevance scores, and a policy
        /// whose `after` offset is also relative to the run's start.
        case timeline(entries: [Double], relevance: [Double?], policy: Policy, runtime: Double)
        /// A failed run: `crash`, `timeout` or `invalid`.
        case failure(reason: String, runtime: Double)

        public var runtime: Double {
            switch self {
            case .timeline(_, _, _, let runtime), .failure(_, let runtime): return runtime
            }
        }
    }

    /// A reload policy with `after` as an offset from the run's start.
    public enum Policy: Sendable, Hashable {
        case atEnd
        case never
        case after(Double)
    }

    /// What a request names.
    public enum Target: Sendable, Hashable {
        case kind(String)
        case all
        case widgets([String])
        /// A configuration change of one widget.
        case configure(String)
    }

    /// One request, at simulated seconds `at`.
    public struct Request: Sendable, Hashable {
        public var at: Double
        public var target: Target
        public var foreground: Bool

        public init(at: Double, target: Target, foreground: Bool) {
            self.at = at
            self.target = target
            self.foreground = foreground
        }
    }

    /// A wall-clock jump of `jump` seconds (±) at simulated second `at`.
    public struct ClockJump: Sendable, Hashable {
        public var at: Double
        public var jump: Double

        public init(at: Double, jump: Double) {
            self.at = at
            self.jump = jump
        }
    }

    /// Wall clock at t = 0.
    public var start: Date
    /// Simulated seconds to run.
    public var duration: Double
    public var settings: SchedulerSettings
    public var widgets: [Widget]
    public var responses: [String: [Response]]
    public var requests: [Request]
    public var clock: [ClockJump]

    public init(
        start: Date, duration: Double, settings: SchedulerSettings, widgets: [Widget],
        responses: [String: [Response]], requests: [Request], clock: [ClockJump]
    ) {
        self.start = start
        self.duration = duration
        self.settings = settings
        self.widgets = widgets
        self.responses = responses
        self.requests = requests
        self.clock = clock
    }
}
