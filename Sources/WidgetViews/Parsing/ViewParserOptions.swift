/// What the manifest loader knows that a view document alone does not.
public struct ViewParserOptions: Sendable {
    /// The families the kind declares; a view for any other family is an error. Nil accepts every family.
    public var declaredFamilies: [String]?
    /// Checks an `asset` name against the provider's asset folder: nil when the file is there, else what is wrong.
    /// Nil when the kind has no asset folder known here (a host parsing what the daemon already checked).
    public var checkAsset: (@Sendable (String) -> String?)?
    /// Whether the kind has an asset folder at all (`assets` in its manifest).
    public var hasAssetFolder: Bool

    public init(
        declaredFamilies: [String]? = nil, hasAssetFolder: Bool = true,
        checkAsset: (@Sendable (String) -> String?)? = nil
    ) {
        self.declaredFamilies = declaredFamilies
        self.hasAssetFolder = hasAssetFolder
        self.checkAsset = checkAsset
    }
}
