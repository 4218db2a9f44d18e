// Counts and sums fed by a log's values (object counts, durations, change counts, omitted
// errors) hold at the integer's bounds: a hostile or broken log makes a large figure, never
// a trap (issue #41).
extension FixedWidthInteger {
    /// `self + other`, held at `.max` or `.min` where it would overflow.
    @inlinable func saturatingAdding(_ other: Self) -> Self {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }

    /// `self += other`, held at `.max` or `.min` where it would overflow.
    @inlinable mutating func saturatingAdd(_ other: Self) {
        self = saturatingAdding(other)
    }
}
