/// The files of the shared group data, which the providers of a group read: one directory per group, one file per
/// key, `{"value": …, "updatedAt": "<RFC 3339>"}`. The real one is `GroupDataDirectory`; the test kit's fake keeps the
/// files in memory. The values themselves live in the state store; these files are the providers' view of them.
public protocol GroupDataStoring: AnyObject {
    /// The directory the providers of `group` are told to read.
    func directory(of group: String) -> String
    /// Creates the directories of `groups` where they are missing, so a provider finds its directory before any
    /// value is set.
    func createDirectories(for groups: Set<String>)
    /// Writes the file of `record`, replacing any older one atomically: a provider never reads half a value.
    func write(_ record: GroupDataRecord) throws
    /// Removes the file of `key` in `group`, if there is one.
    func remove(group: String, key: String)
}
