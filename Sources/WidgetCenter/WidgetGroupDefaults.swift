import Foundation
import WidgetControlClient
import WidgetProtocol

/// A shared data group (WidgetKit's App Group), read and written as an app uses `UserDefaults(suiteName:)`.
///
/// The daemon keeps the values; a provider whose manifest says `group = "weather"` reads each key as the file
/// `DATA_DIRECTORY/KEY`, with the value and when it was written. Values are text, as the provider reads them from
/// JSON: store a number or a structure as its text (`String(42)`, JSON), and binary data base64-encoded.
///
/// ```swift
/// let defaults = WidgetGroupDefaults(suiteName: "weather")
/// try defaults.set("Paris", forKey: "location", reloadingKinds: ["weather"])
/// let location = try defaults.string(forKey: "location")
/// ```
///
/// The group is private: reading needs to be among its readers or writers (the manifest's `group-reader-users`,
/// `group-reader-groups`, `group-writer-users`, `group-writer-groups`, by default the kinds' owners), writing among
/// its writers; root, the daemon's user and members of the group `widget-scheduler` may do both. A value cannot be
/// set in a group no manifest declares. Each call blocks until the daemon answers.
public struct WidgetGroupDefaults: Sendable {
    /// The group's name, as the providers' manifests give it (`group = "weather"`).
    public let suiteName: String
    private let endpoint: DaemonEndpoint

    /// The group `suiteName` of the daemon at `socketPath` (nil: `WIDGET_SCHEDULER_SOCKET`, else the system
    /// socket), waiting at most `timeout` seconds for each answer. Group names are 1 to 128 of `A-Z a-z 0-9 . _ -`.
    public init(suiteName: String, socketPath: String? = nil, timeout: Double = 30) {
        self.suiteName = suiteName
        endpoint = DaemonEndpoint(socketPath: socketPath, timeout: timeout)
    }

    /// Stores `value` under `key`; nil removes the key, as `UserDefaults` does.
    public func set(_ value: String?, forKey key: String) throws(WidgetCenterError) {
        guard let value else { return try removeObject(forKey: key) }
        try set(value, forKey: key, reloadingKinds: [])
    }

    /// Stores `value`, which must be UTF-8 text, under `key`.
    public func set(_ value: Data, forKey key: String) throws(WidgetCenterError) {
        try set(try Self.text(value), forKey: key, reloadingKinds: [])
    }

    /// Stores `value` under `key`, then reloads the widgets of each of `kinds`: an app's "save, then
    /// `reloadTimelines(ofKind:)`" in one step. Returns the reload decisions, kind after kind.
    ///
    /// The first kind is checked before the value is written, so an unknown kind (or one the caller may not reload)
    /// leaves the group unchanged. Each further kind is reloaded after the write, and the first of those to fail
    /// throws with the value written.
    @discardableResult
    public func set(
        _ value: String, forKey key: String, reloadingKinds kinds: [String]
    ) throws(WidgetCenterError) -> [WidgetReloadDecision] {
        var unique: [String] = []
        for kind in kinds where !unique.contains(kind) { unique.append(kind) }
        let group = suiteName
        let replies = try endpoint.withClient { calls throws(ControlClientError) -> [[ReloadDecision]] in
            var replies = [try calls.call(DataSetMethod.self, .init(
                group: group, key: key, value: value, reloadKind: unique.first)).decisions]
            for kind in unique.dropFirst() {
                replies.append(try calls.call(ReloadMethod.self, .init(kind: kind)).decisions)
            }
            return replies
        }
        return try WidgetReloadDecision.decisions(replies.flatMap { $0 })
    }

    /// Stores `value`, which must be UTF-8 text, under `key`, then reloads the widgets of each of `kinds`.
    @discardableResult
    public func set(
        _ value: Data, forKey key: String, reloadingKinds kinds: [String]
    ) throws(WidgetCenterError) -> [WidgetReloadDecision] {
        try set(try Self.text(value), forKey: key, reloadingKinds: kinds)
    }

    /// The value stored under `key`, or nil when there is none.
    public func string(forKey key: String) throws(WidgetCenterError) -> String? {
        let group = suiteName
        return try endpoint.withClient { calls throws(ControlClientError) -> String? in
            do throws(ControlClientError) {
                return try calls.call(DataGetMethod.self, .init(group: group, key: key)).value
            } catch .remote(let error) where error.name == ControlError.Name.unknownKey {
                return nil
            }
        }
    }

    /// The UTF-8 bytes of the value stored under `key`, or nil when there is none.
    public func data(forKey key: String) throws(WidgetCenterError) -> Data? {
        try string(forKey: key).map { Data($0.utf8) }
    }

    /// Removes the value under `key`; removing a key that has no value does nothing, as in `UserDefaults`.
    public func removeObject(forKey key: String) throws(WidgetCenterError) {
        let group = suiteName
        try endpoint.withClient { calls throws(ControlClientError) in
            do throws(ControlClientError) {
                _ = try calls.call(DataDeleteMethod.self, .init(group: group, key: key))
            } catch .remote(let error) where error.name == ControlError.Name.unknownKey {
                return
            }
        }
    }

    /// Every value of the group, by key.
    public func dictionaryRepresentation() throws(WidgetCenterError) -> [String: String] {
        let group = suiteName
        let items = try endpoint.withClient { calls throws(ControlClientError) in
            try calls.call(DataListMethod.self, .init(group: group)).items
        }
        return Dictionary(items.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    private static func text(_ data: Data) throws(WidgetCenterError) -> String {
        guard let text = String(validating: data, as: UTF8.self) else {
            throw .invalidValue("a group's values are text, and these \(data.count) bytes are not UTF-8: "
                + "base64-encode binary data")
        }
        return text
    }
}
