/// Spans of time for people, in the forms systemd uses (`4min 3s`, `1h 2min`, `2 days 3h`, `250ms`), and moments
/// relative to now (`in 4min 3s`, `3min ago`, `now`): the one formatter of the daemon's status line and `widgetctl`.
public enum TimeSpan {
    /// `seconds` (its magnitude) in at most two units: `4min 3s`, `1h 2min`, `2 days 3h`, `250ms`, `0s`.
    public static func text(_ seconds: Double) -> String {
        let seconds = abs(seconds)
        if seconds < 1 {
            let milliseconds = Int((seconds * 1000).rounded())
            return milliseconds == 0 ? "0s" : "\(milliseconds)ms"
        }
        var left = seconds < Double(Int.max) ? Int(seconds.rounded(.down)) : Int.max
        let units: [(String, Int)] = [("day", 86_400), ("h", 3_600), ("min", 60), ("s", 1)]
        var parts: [String] = []
        for (name, size) in units where left >= size && parts.count < 2 {
            let count = left / size
            left -= count * size
            parts.append(name == "day" ? "\(count) \(count == 1 ? "day" : "days")" : "\(count)\(name)")
        }
        return parts.joined(separator: " ")
    }

    /// A moment `delta` seconds from now: `in 4min 3s`, `3min ago`, or `now` within half a second.
    public static func relative(_ delta: Double) -> String {
        if abs(delta) < 0.5 || delta.isNaN { return "now" }
        return delta > 0 ? "in " + text(delta) : text(delta) + " ago"
    }
}
