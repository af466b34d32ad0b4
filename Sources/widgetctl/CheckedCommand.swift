import ArgumentParser

/// A command whose arguments must combine in a certain way ("exactly one of --kind, --all or ids"): checked after
/// parsing has reported unknown options (see `WidgetCtl.main`).
protocol CheckedCommand: ParsableCommand {
    /// Throws a `ValidationError` saying what is wrong with the combination.
    func checkArguments() throws
}
