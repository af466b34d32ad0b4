import Logging

/// One fixed 128-bit journal MESSAGE_ID per kind of event the daemon logs (made with `systemd-id128 new`).
///
/// `units/widget-scheduler.catalog` has an entry for each, shown by `journalctl -x`; `docs/journal.md` lists them.
/// Never change a value: queries such as `journalctl MESSAGE_ID=…` and the catalog depend on it.
public enum JournalMessageID: String, CaseIterable, Sendable {
    /// A provider run began (fields: WIDGET_ID, WIDGET_KIND, RELOAD_REASON, PROVIDER_PID).
    case runStarted = "6e60a12f3b8c48b581854b2f29eecc0d"
    /// A provider answered with a valid timeline (WIDGET_ID, WIDGET_KIND, POLICY, DURATION_USEC, PROVIDER_PID).
    case runFinished = "7633e9afe0f54a36aebcf59076c059dd"
    /// A provider run failed (WIDGET_ID, WIDGET_KIND, FAILURE_REASON, DURATION_USEC; EXIT_STATUS when known).
    case runFailed = "bd4e8c89b92f41518396f51928470b1b"
    /// A reload request was decided: ran, coalesced or deferred (WIDGET_ID, DECISION, NEXT_RELOAD, TOKENS; BECAUSE
    /// when deferred).
    case requestDecided = "deed13254889476caf47013731a47c46"
    /// A reload request changed nothing for some of its widgets: each already had that run planned or in flight
    /// (WIDGET_COUNT; WIDGET_KIND for a kind; DECISION when all were decided alike). One entry per request instead
    /// of one per widget, so a repeated `reload --kind` of thousands of widgets cannot flood the journal.
    case requestUnchanged = "2382529b452f4f489d04e6e3ef9c8a4c"
    /// A control request was refused by peer-credential authorization.
    case requestRefused = "1461c55dfe9f44e3bfc4e8f05cb5bebe"
    /// A widget was quarantined after repeated failures (WIDGET_ID, WIDGET_KIND, FAILURE_REASON).
    case quarantined = "f76e6ad5252542e29605d7d9d1cd0827"
    /// A widget's daily refresh budget ran out (WIDGET_ID, WIDGET_KIND, TOKENS, NEXT_RELOAD).
    case budgetExhausted = "089c456983f74aec8f7a86abff01c587"
    /// A provider manifest was rejected (FAILURE_REASON names the file and field).
    case manifestInvalid = "352bf103d0f84c2b9990adb8dfbede5d"
    /// The daemon finished starting and is ready.
    case started = "0545ab5ea7104499b91911c0bb1a3cfb"
    /// The daemon is shutting down.
    case stopping = "bdbe5d26d74446b3ad6d74a6123bd696"
    /// The configuration and manifests were re-read (SIGHUP / `systemctl reload`).
    case reloaded = "2f22a52a816542b0973eb3864977d73d"
    /// A widget's current timeline entry changed (WIDGET_ID, WIDGET_KIND).
    case entryChanged = "2268848ce0a643bb80fd20918ce9d031"
    /// The wall clock jumped; deadlines were recomputed.
    case clockChanged = "02fef42b6e1341f5a03bd2559d149440"
    /// A budgeted run was in flight when the daemon last stopped: the run in its place spends no second token
    /// (WIDGET_ID, WIDGET_KIND, RELOAD_REASON of the run in its place).
    case interruptedRunResumed = "adffc638d7d5491194f97a5aa24a61be"
    /// The state could not be written (FAILURE_REASON): the daemon is degraded until a retry succeeds. Logged once
    /// a spell, and again when the daemon stops with changes it could not write.
    case stateNotWritten = "5da39722d2544e80bc473afea9722b88"
    /// The state was written again after a spell of failed writes; the daemon is no longer degraded.
    case stateWrittenAgain = "cc055d94ceb645f0be10fdc887ffc8d9"
    /// The state database lost what it held (`StateLoss`): the daemon refused to start, or, with
    /// `--accept-state-loss`, started without it.
    case stateLost = "e78465ead4f64009a3b9dd79202b080f"

    /// The value for a `Logger.Metadata` entry under `JournalField.messageID`.
    public var metadataValue: Logger.MetadataValue {
        .string(rawValue)
    }
}

/// The structured journal fields the daemon attaches to its log entries, as swift-log metadata keys. The journal
/// handler passes these names through unchanged.
public enum JournalField {
    /// The event kind; its value is a `JournalMessageID` raw value.
    public static let messageID = "MESSAGE_ID"
    /// The widget's id, e.g. "w3".
    public static let widgetID = "WIDGET_ID"
    /// The provider kind, e.g. "weather".
    public static let widgetKind = "WIDGET_KIND"
    /// Why a run happened: a `RunReason` (initial, configuration, foreground, policy, explicit, retry).
    public static let reloadReason = "RELOAD_REASON"
    /// A request's outcome: ran, coalesced or deferred.
    public static let decision = "DECISION"
    /// Why a deferred request waits: a `DeferralReason` (floor, budget, backoff, concurrency).
    public static let because = "BECAUSE"
    /// The next planned reload, RFC 3339.
    public static let nextReload = "NEXT_RELOAD"
    /// The timeline's reload policy: atEnd, after(date) or never.
    public static let policy = "POLICY"
    /// Tokens left in the widget's daily budget.
    public static let tokens = "TOKENS"
    /// The provider process id of a run.
    public static let providerPID = "PROVIDER_PID"
    /// How the provider process ended, e.g. "exited with status 2".
    public static let exitStatus = "EXIT_STATUS"
    /// Why a run or manifest failed, naming the file, field or entry at fault.
    public static let failureReason = "FAILURE_REASON"
    /// How long a run took, in microseconds.
    public static let durationUsec = "DURATION_USEC"
    /// How many widgets an entry about several of them covers.
    public static let widgetCount = "WIDGET_COUNT"
    /// How many of a widget's earlier successful runs, without a line of their own, a run's end line stands for.
    public static let runsFolded = "RUNS_FOLDED"
    /// Which form of containment a run had: "cgroup" (memory and tasks capped for the whole run), "cgroup-kill-only"
    /// (a cgroup killed at the run's end, memory capped per process) or "process" (memory capped per process).
    public static let limits = "LIMITS"
}
