/// One provider's manifest: how to run it and which widget kinds it serves.
public struct ProviderManifest: Sendable, Hashable {
    /// Users and unix groups named in a manifest, by name or numeric id.
    public struct Principals: Sendable, Hashable {
        public var users: [String]
        public var groups: [String]

        public init(users: [String] = [], groups: [String] = []) {
            self.users = users
            self.groups = groups
        }
    }

    /// The manifest file's path.
    public var path: String {
        didSet { directory = Self.directory(of: path) }
    }
    /// The directory part of `path`, where the provider runs: kept with the path, as every run needs it.
    public private(set) var directory: String
    /// The program and its arguments. A relative program path in the file is resolved against the manifest's
    /// directory, so `exec[0]` is always absolute.
    public var exec: [String]
    /// Seconds a run may take before the runner stops it (`timeout`, default 30).
    public var timeout: Double
    /// Bytes of memory a run may use (`memory-max`, default 128 MiB).
    public var memoryMax: Int
    /// Processes and threads a run may have at once (`tasks-max`, default 64), where runs have cgroups.
    public var tasksMax: Int
    /// The shared data group (`group`), whose directory providers get as `context.dataDirectory`.
    public var group: String?
    /// Users who own the kinds: they may reload, configure, write the group's data and use `--foreground`.
    public var ownerUsers: [String]
    /// Groups whose members own the kinds.
    public var ownerGroups: [String]
    /// Who may read the group's data through the daemon (`group-reader-users`, `group-reader-groups`); nil when the
    /// manifest names no one, and the kinds' owners may (`GroupDataAccess`).
    public var groupReaders: Principals?
    /// Who may write the group's data (`group-writer-users`, `group-writer-groups`); nil: the kinds' owners.
    public var groupWriters: Principals?
    /// The provider's asset folder (`assets`), absolute: the images its views show. Nil when it has none.
    public var assetsDirectory: String?
    /// Whether the provider saves images for its entries (`images = true`): only then does each of its timeline and
    /// snapshot runs get a fresh directory it may write them in (`context.imageDirectory`). A provider that does
    /// not declare it gets no writable directory of the daemon's, and its runs cost no directory.
    public var savesImages: Bool
    /// The widget kinds served, in file order.
    public var widgets: [WidgetKindManifest]

    /// Seconds a run may take when the manifest does not say.
    public static let defaultTimeout = 30.0
    /// Bytes a run may use when the manifest does not say: 128 MiB.
    public static let defaultMemoryMax = 128 * 1024 * 1024
    /// Tasks a run may have when the manifest does not say: room for a shell pipeline or a threaded runtime, none for
    /// a fork bomb.
    public static let defaultTasksMax = 64
    /// The largest `tasks-max`: the kernel's largest pid_max.
    public static let largestTasksMax = 4_194_304

    public init(
        path: String,
        exec: [String],
        timeout: Double = defaultTimeout,
        memoryMax: Int = defaultMemoryMax,
        tasksMax: Int = defaultTasksMax,
        group: String? = nil,
        ownerUsers: [String] = [],
        ownerGroups: [String] = [],
        groupReaders: Principals? = nil,
        groupWriters: Principals? = nil,
        assetsDirectory: String? = nil,
        savesImages: Bool = false,
        widgets: [WidgetKindManifest]
    ) {
        self.path = path
        self.directory = Self.directory(of: path)
        self.exec = exec
        self.timeout = timeout
        self.memoryMax = memoryMax
        self.tasksMax = tasksMax
        self.group = group
        self.ownerUsers = ownerUsers
        self.ownerGroups = ownerGroups
        self.groupReaders = groupReaders
        self.groupWriters = groupWriters
        self.assetsDirectory = assetsDirectory
        self.savesImages = savesImages
        self.widgets = widgets
    }

    /// The directory part of a manifest's path, by its text alone: a URL would stat the file (and read the working
    /// directory).
    static func directory(of path: String) -> String {
        // On the UTF-8 bytes: '/' is ASCII, and no byte of a multi-byte character is, so this cuts where the
        // characters would.
        let bytes = Array(path.utf8)
        let slash = UInt8(ascii: "/")
        var end = bytes.count
        while end > 1, bytes[end - 1] == slash { end -= 1 }
        guard let last = bytes[..<end].lastIndex(of: slash) else { return "." }
        if last == 0 { return "/" }
        var directoryEnd = last
        while directoryEnd > 1, bytes[directoryEnd - 1] == slash { directoryEnd -= 1 }
        return String(decoding: bytes[..<directoryEnd], as: UTF8.self)
    }

    /// The kind named `kind`, if this manifest serves it.
    public func widget(kind: String) -> WidgetKindManifest? {
        widgets.first { $0.kind == kind }
    }

    /// Whether a user with this name and these group names owns this manifest's kinds.
    public func isOwned(byUser userName: String, groups groupNames: [String]) -> Bool {
        ownerUsers.contains(userName) || groupNames.contains(where: ownerGroups.contains)
    }
}
