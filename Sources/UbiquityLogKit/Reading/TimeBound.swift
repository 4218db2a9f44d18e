/// A `--since` or `--until` bound as users write it: a date and time (`2014-03-02 09:14`),
/// one copied from a header with its UTC offset (`2016-09-30 10:01:02.123456+0200`, also
/// `+02:00` and `Z`), or a time of day alone (`09:14`, `09:14:07`), which means that time on the
/// day of the input's first record with a time. Some bounds are whole only once that record is
/// seen (`resolved(at:)`): a time of day takes its date, and an offset other than the record's
/// is moved into the record's (headers give local wall-clock times).
public struct TimeBound: Sendable, Equatable {
    /// The bound's first instant (for `--since`) or last (for `--until`), as written.
    public var time: LogTime
    /// Whether only a time of day was written (the date is the input's).
    public var isTimeOfDay: Bool

    public init?(parsing text: String, end: Bool) {
        var rest = Substring(text)
        let offset = TimeBound.utcOffset(stripping: &rest)
        isTimeOfDay = TimeBound.isClock(rest)
        // A time of day is read on a day that exists (its own date is set when resolved).
        let written = isTimeOfDay ? "2000-01-01 " + rest : String(rest)
        guard var time = end ? LogTime(parsingEndOf: written) : LogTime(parsing: written) else { return nil }
        time.utcOffsetMinutes = offset
        self.time = time
    }

    /// Whether the bound needs a record with a time to be whole.
    public var needsRecord: Bool { isTimeOfDay || time.utcOffsetMinutes != nil }

    /// The bound as a time in the terms of `record`, the first record with a time of an input.
    public func resolved(at record: LogTime) -> LogTime {
        var bound = time
        if isTimeOfDay {
            (bound.year, bound.month, bound.day) = (record.year, record.month, record.day)
        }
        if let own = bound.utcOffsetMinutes, let theirs = record.utcOffsetMinutes, own != theirs {
            bound = bound.moved(byMinutes: theirs - own)
        }
        bound.utcOffsetMinutes = record.utcOffsetMinutes
        return bound
    }

    /// `HH:MM`, `HH:MM:SS` or `HH:MM:SS.fff`: a clock with no date.
    static func isClock(_ text: Substring) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 5, bytes[2] == UInt8(ascii: ":") else { return false }
        return bytes.count == 5 || bytes[5] == UInt8(ascii: ":")
    }

    /// A trailing `Z`, `+HHMM`, `-HHMM`, `+HH:MM` or `-HH:MM` after a time, taken off `text`:
    /// its minutes east of UTC. A date's own dashes (`2014-03-02`) are not an offset: one
    /// follows a digit of a time, after a colon.
    static func utcOffset(stripping text: inout Substring) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: ":")) else { return nil }
        if bytes.last == UInt8(ascii: "Z") {
            text = text.dropLast()
            return 0
        }
        func digits(_ slice: ArraySlice<UInt8>) -> Int? {
            guard !slice.isEmpty, slice.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            return slice.reduce(0) { $0 * 10 + Int($1 - 48) }
        }
        for (length, colon) in [(5, false), (6, true)] where bytes.count > length + 4 {
            let start = bytes.count - length
            let sign = bytes[start]
            guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), !colon || bytes[start + 3] == UInt8(ascii: ":"),
                  let hours = digits(bytes[(start + 1)..<(start + 3)]), let minutes = digits(bytes[(bytes.count - 2)...]),
                  hours < 24, minutes < 60
            else { continue }
            text = text.dropLast(length)
            return (sign == UInt8(ascii: "-") ? -1 : 1) * (hours * 60 + minutes)
        }
        return nil
    }
}

extension LogTime {
    /// The same instant `minutes` later on the wall clock (into the next or previous day,
    /// month or year where it crosses one). Without a year, 2000 is used to find the days.
    func moved(byMinutes minutes: Int) -> LogTime {
        let total = Int64(LogTime.daysFromCivil(year: year ?? 2000, month: month, day: day)) * 1440 + Int64(hour * 60 + minute) + Int64(minutes)
        let days = Int(total >= 0 ? total / 1440 : (total - 1439) / 1440)
        let minuteOfDay = Int(total - Int64(days) * 1440)
        var moved = self
        let civil = LogTime.civil(fromDays: days)
        (moved.month, moved.day) = (civil.month, civil.day)
        if year != nil { moved.year = civil.year }
        (moved.hour, moved.minute) = (minuteOfDay / 60, minuteOfDay % 60)
        return moved
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (the inverse of
    /// `daysFromCivil`).
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
