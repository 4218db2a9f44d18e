/// `--last DURATION`: a span of log time counted back from the end of each input (`30m`,
/// `2h`, `90s`, `1d`, `1h30m`). A record is inside when its time is at most the span before
/// the input's latest time; a record after that time (a clock that stepped back) is inside too.
public struct LastDuration: Sendable, Equatable {
    /// The span in microseconds (more than zero).
    public let microseconds: Int64
    /// The span as written, for messages and the summary.
    public let text: String

    /// Reads whole numbers each followed by a unit, `d`, `h`, `m` or `s`, largest unit first,
    /// each unit once: `1d`, `1h30m`, `90s`. A number without a unit, `0s`, a unit twice or out
    /// of order are refused, so that no reading of the text is a guess.
    public init?(parsing text: String) {
        let units: [(UInt8, Int64)] = [(UInt8(ascii: "d"), 86_400), (UInt8(ascii: "h"), 3600), (UInt8(ascii: "m"), 60), (UInt8(ascii: "s"), 1)]
        var seconds: Int64 = 0
        var number: Int64?
        var nextUnit = 0
        for byte in text.utf8 {
            if byte >= 48, byte <= 57 {
                let value = (number ?? 0) * 10 + Int64(byte - 48)
                // Ten thousand days is past any log's span; the cap keeps the sum from overflowing.
                guard value <= 10_000 * 86_400 else { return nil }
                number = value
                continue
            }
            guard let value = number, let unit = units[nextUnit...].firstIndex(where: { $0.0 == byte }) else { return nil }
            seconds += value * units[unit].1
            guard seconds <= 10_000 * 86_400 else { return nil }
            number = nil
            nextUnit = unit + 1
        }
        guard number == nil, seconds > 0 else { return nil }
        microseconds = seconds * 1_000_000
        self.text = text
    }

    /// Whether `time` lies inside the span that ends at `end`.
    public func contains(_ time: LogTime, end: LogTime) -> Bool {
        LastDuration.microseconds(from: time, to: end) <= microseconds
    }

    /// Microseconds from `earlier` to `later` (negative when `later` is before). Two times with
    /// UTC offsets are compared as instants (a log across a change to summer time keeps its
    /// span). A time without a year (syslog) is placed in the year that keeps the two within
    /// half a year of each other: a log's `Dec 31 23:50` comes 20 minutes before its
    /// `Jan  1 00:10`, not most of a year after.
    public static func microseconds(from earlier: LogTime, to later: LogTime) -> Int64 {
        var laterYear = later.year ?? earlier.year ?? 2000
        var earlierYear = earlier.year ?? laterYear
        func difference() -> Int64 {
            var difference = later.microseconds(assumingYear: laterYear) - earlier.microseconds(assumingYear: earlierYear)
            if let laterOffset = later.utcOffsetMinutes, let earlierOffset = earlier.utcOffsetMinutes {
                difference -= Int64(laterOffset - earlierOffset) * 60_000_000
            }
            return difference
        }
        let found = difference()
        guard later.year == nil || earlier.year == nil else { return found }
        let halfYear: Int64 = 183 * 86_400 * 1_000_000
        guard abs(found) > halfYear else { return found }
        // The one without a year moves by a year, towards the other.
        let step = found > 0 ? 1 : -1
        if later.year == nil { laterYear -= step } else { earlierYear += step }
        return difference()
    }
}
