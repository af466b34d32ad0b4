extension FixedWidthInteger {
    /// `value` rounded to the nearest integer (halves away from zero) and held within the type's range, 0 for NaN:
    /// for counts, timer deadlines and text made from a number that may come from outside, where `Int(_:)` would
    /// stop the process on a value it cannot hold.
    public init(saturating value: Double) {
        let rounded = value.rounded()
        if let exact = Self(exactly: rounded) {
            self = exact
        } else if rounded.isNaN {
            self = 0
        } else {
            self = rounded < 0 ? .min : .max
        }
    }
}
