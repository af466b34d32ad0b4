import Foundation
import WidgetProtocol
import WidgetSchedulerCore

/// The control API's shared group data: values an app sets for the providers of a group, kept in the store and
/// written as files the providers read (`GroupDataStoring`).
extension WidgetService {
    /// Checks a group or key name: it becomes a file or directory name under the state directory.
    func checkName(_ name: String, _ field: String) throws(ControlError) {
        let allowed = name.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) && $0.isASCII || "._-".unicodeScalars.contains($0)
        }
        guard !name.isEmpty, name.count <= 128, allowed, !name.hasPrefix(".") else {
            throw .invalidParameter(field, reason: "must be 1 to 128 of A-Z a-z 0-9 . _ - and not start with a dot; "
                + "got \"\(ControlError.echoed(name))\"")
        }
    }

    /// Stores `value` under `group`/`key` with its timestamp, writes the provider-visible file atomically, and, with
    /// `reloadKind`, reloads that kind: an app's "save, then `reloadTimelines(ofKind:)`" in one call. The value is
    /// committed with the turn's changes, before the reply (`DaemonControlHandler`).
    public func dataSet(group: String, key: String, value: String, reloadKind: String?) throws(ControlError)
        -> DataSetMethod.Reply
    {
        try checkName(group, "group")
        try checkName(key, "key")
        if let reloadKind { _ = try widgetIDs(for: .kind(reloadKind)) }
        let now = clock.now().wall
        let record = GroupDataRecord(group: group, key: key, value: value, updatedAt: now)
        do {
            try groupData.write(record)
        } catch {
            throw .stateNotWritten(cause: "cannot write the group's data file: \(error)", applied: false)
        }
        state.batch.setGroupValue(record)
        logger.info("group \(group): \(key) set", metadata: ["GROUP": "\(group)", "KEY": "\(key)"])
        let decisions = try reloadKind.map { kind throws(ControlError) in try reload(.kind(kind), foreground: false) }
        return DataSetMethod.Reply(updatedAt: now, decisions: decisions ?? [])
    }

    /// The value of `group`/`key`. A change not yet committed counts: a reader on another connection sees it as soon
    /// as it is made, like the provider reading its file.
    public func dataGet(group: String, key: String) throws(ControlError) -> DataItem {
        try checkName(group, "group")
        try checkName(key, "key")
        if let unwritten = state.batch.groupData[StateBatch.GroupDataKey(group: group, key: key)] {
            guard let record = unwritten else { throw .unknownKey(group: group, key: key) }
            return DataItem(key: record.key, value: record.value, updatedAt: record.updatedAt)
        }
        let stored: GroupDataRecord?
        do {
            stored = try state.store.groupValue(group: group, key: key)
        } catch {
            logger.error("group \(group): cannot read \(key): \(error)",
                         metadata: ["GROUP": "\(group)", "KEY": "\(key)"])
            stored = nil
        }
        guard let record = stored else { throw .unknownKey(group: group, key: key) }
        return DataItem(key: record.key, value: record.value, updatedAt: record.updatedAt)
    }

    /// Every value of `group`, ordered by key, changes not yet committed included.
    public func dataList(group: String) throws(ControlError) -> [DataItem] {
        try checkName(group, "group")
        var records: [String: GroupDataRecord] = [:]
        do {
            for record in try state.store.groupData(group: group) { records[record.key] = record }
        } catch {
            logger.error("group \(group): cannot read its data: \(error)", metadata: ["GROUP": "\(group)"])
        }
        for (key, record) in state.batch.groupData where key.group == group { records[key.key] = record }
        return records.values.sorted { $0.key < $1.key }.map {
            DataItem(key: $0.key, value: $0.value, updatedAt: $0.updatedAt)
        }
    }

    public func dataDelete(group: String, key: String) throws(ControlError) {
        _ = try dataGet(group: group, key: key)
        state.batch.deleteGroupValue(group: group, key: key)
        groupData.remove(group: group, key: key)
        logger.info("group \(group): \(key) deleted", metadata: ["GROUP": "\(group)", "KEY": "\(key)"])
    }
}
