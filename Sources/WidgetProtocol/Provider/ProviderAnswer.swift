import WidgetSchedulerCore

/// A validated answer to any request kind, as `ProviderAnswerDecoder.answer(to:from:)` returns it.
public enum ProviderAnswer: Sendable, Hashable {
    /// The answer to `timeline`.
    case timeline(Timeline)
    /// The answer to `snapshot` or `placeholder`.
    case entry(TimelineEntry)
    /// The answer to `defaults`.
    case configuration([String: JSONValue])
    /// The answer to `options`.
    case options([ParameterOption])
}
