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

    var record: WidgetRecord {
        WidgetRecord(id: id, kind: kind, family: family, configuration: JSONValue.object(configuration).jsonText(),
                     addedAt: addedAt)
    }
}
