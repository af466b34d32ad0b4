/// The version of widget-scheduler: the daemon's `Status` reply, and `--version` of `widget-scheduler` and `widgetctl`.
public enum ProductVersion {
    public static let current = "0.1.0"
}
