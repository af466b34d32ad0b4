import ArgumentParser
import WidgetControl
import WidgetProtocol

/// The `--param NAME=VALUE` arguments of `add` and `configure`: checked before anything is asked of the daemon, then
/// sent in their parameters' types.
enum ParameterArguments {
    /// Refuses assignments that do not parse, or a name given twice, as a usage error naming it.
    static func check(_ texts: [String]) throws {
        do {
            _ = try ParameterAssignment.object(texts)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The assignments as the call sends them: JSON values as parsed, and each bare value read as the type its
    /// parameter has (`types`, asked of the daemon only when there is a bare value to read).
    static func values(
        _ texts: [String], types: () throws(ControlClientError) -> [String: String]
    ) throws(ControlClientError) -> [String: JSONValue] {
        let values = (try? ParameterAssignment.object(texts)) ?? [:]
        let plainTexts = ParameterAssignment.plainTexts(texts)
        guard !plainTexts.isEmpty else { return values }
        return ParameterAssignment.typed(values, plainTexts: plainTexts, types: try types())
    }
}
