import Foundation
import WidgetProtocol
import WidgetSchedulerCore

/// What the daemon keeps about a widget beyond the scheduler's state: its identity and configuration.
struct ManagedWidget {
    var id: String
    var kind: String
    var family: String
    var configuration: [String: JSONValue]
    var addedAt: Date
    var lastRun: PersistedWidgetState.LastRun?
    /// The current entry's content as JSON text, for `List` and `Watch`: the scheduler keeps only entry dates.
    var currentContent: String?
    /// Whether `currentContent` came from a timeline this process decoded, so is in `JSONValue.jsonText()`'s form and
    /// can be sent to watchers as it is. Content read back from the store is parsed first: a damaged file must not
    /// put broken JSON on the stream.
    var currentContentIsDecoded = false
    /// The images the current entry's content names, by file name.
    var currentImages: [String: EntryImage] = [:]

    var record: WidgetRecord {
        WidgetRecord(id: id, kind: kind, family: family, configuration: JSONValue.object(configuration).jsonText(),
                     addedAt: addedAt)
    }
}
