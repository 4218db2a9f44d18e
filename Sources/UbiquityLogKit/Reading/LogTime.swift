// A timestamp as a log header printed it: the year may be missing (syslog), the fraction
// has as many digits as printed, the UTC offset is known only for some styles.

public struct LogTime: Sendable, Equatable, Comparable {
    public var year: Int?
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// The fraction of the second in microseconds.
    public var microsecond: Int
    /// How many fraction digits the log printed (0 when none): kept so output shows what was there.
    public var fractionDigits: Int
    /// Minutes east of UTC, when the header said.
    public var utcOffsetMinutes: Int?

    public init(
        year: Int?, month: Int, day: Int, hour: Int, minute: Int, second: Int,
        microsecond: Int = 0, fractionDigits: Int = 0, utcOffsetMinutes: Int? = nil
    ) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.microsecond = microsecond
        self.fractionDigits = fractionDigits
        self.utcOffsetMinutes = utcOffsetMinutes
    }

    /// Microseconds on a line that only orders times of one log: local wall-clock time,
    /// with a missing year taken as 2000 (only differences within a log are used).
    public var microsecondsSinceEpoch: Int64 { microseconds(assumingYear: 2000) }

    /// As `microsecondsSinceEpoch`, with a missing year taken as `fallback` (the year of a
    /// neighbouring timestamp, when styles with and without years are mixed).
    public func microseconds(assumingYear fallback: Int) -> Int64 {
        let days = LogTime.daysFromCivil(year: year ?? fallback, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return seconds * 1_000_000 + Int64(microsecond)
    }

    /// Microseconds from `earlier` to this time. A header without a year (syslog) next to one
    /// with a year (one input mixing styles) is read in the known year, so the difference is
    /// the clock's, not the years' between the fallback and the real year.
    public func microseconds(since earlier: LogTime) -> Int64 {
        // Nearly always the same day (the timeline asks for every record): the clocks alone.
        // A day without a year next to the same day with one is read in that year below,
        // the same day: the clocks alone too, so an input mixing styles (as the ~420-byte
        // benchmark log does) does not take the days' path for most records.
        if month == earlier.month, day == earlier.day, year == earlier.year || year == nil || earlier.year == nil {
            let seconds = (hour - earlier.hour) * 3600 + (minute - earlier.minute) * 60 + (second - earlier.second)
            return Int64(seconds) * 1_000_000 + Int64(microsecond - earlier.microsecond)
        }
        let year = year ?? earlier.year ?? 2000
        return microseconds(assumingYear: year) - earlier.microseconds(assumingYear: earlier.year ?? year)
    }

    public static func < (lhs: LogTime, rhs: LogTime) -> Bool {
        lhs.microsecondsSinceEpoch < rhs.microsecondsSinceEpoch
    }

    /// ISO 8601: `2014-03-02T09:14:07.318`, with the offset when known (`+02:00`) and
    /// `--03-02T…` when the log gave no year.
    public var iso8601: String {
        var text: [UInt8] = []
        appendISO8601(to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// `iso8601` appended to `text`.
    func appendISO8601(to text: inout [UInt8]) {
        withISO8601 { text.append(contentsOf: $0) }
    }

    /// `iso8601` as bytes, for `use`: every record of `--format jsonl` has one, written into
    /// the line being built (a String per part, or per time, is too costly for every record).
    func withISO8601<Result>(_ use: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        TimeText.write(then: use) { out in
            if let year { out.digits(year, width: 4) } else { out.byte(UInt8(ascii: "-")) }
            out.byte(UInt8(ascii: "-"))
            out.digits(month, width: 2)
            out.byte(UInt8(ascii: "-"))
            out.digits(day, width: 2)
            out.byte(UInt8(ascii: "T"))
            writeClock(maxFractionDigits: 6, to: &out)
            if let offset = utcOffsetMinutes {
                out.byte(UInt8(ascii: offset < 0 ? "-" : "+"))
                out.digits(abs(offset) / 60, width: 2)
                out.byte(UInt8(ascii: ":"))
                out.digits(abs(offset) % 60, width: 2)
            }
        }
    }

    /// `09:14:07.318`: the time of day with the fraction as printed.
    public var clock: String { clock(maxFractionDigits: 6) }

    /// The time of day with at most `maxFractionDigits` of the printed fraction.
    public func clock(maxFractionDigits: Int) -> String {
        withClock(maxFractionDigits: maxFractionDigits) { String(decoding: $0, as: UTF8.self) }
    }

    /// `clock(maxFractionDigits:)` as bytes, for `use` (the timeline's first column).
    func withClock<Result>(maxFractionDigits: Int, _ use: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        TimeText.write(then: use) { writeClock(maxFractionDigits: maxFractionDigits, to: &$0) }
    }

    private func writeClock(maxFractionDigits: Int, to out: inout TimeText) {
        out.digits(hour, width: 2)
        out.byte(UInt8(ascii: ":"))
        out.digits(minute, width: 2)
        out.byte(UInt8(ascii: ":"))
        out.digits(second, width: 2)
        let shown = max(0, min(fractionDigits, maxFractionDigits, 6))
        if shown > 0 {
            out.byte(UInt8(ascii: "."))
            // The first `shown` of the six digits of the microseconds.
            if (0..<1_000_000).contains(microsecond) {
                out.digits(microsecond / LogTime.powersOfTen[6 - shown], width: shown)
            } else {
                let start = out.count
                out.digits(microsecond, width: 6)
                out.count = min(out.count, start + shown)
            }
        }
    }

    private static let powersOfTen = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000]

    /// Whether the parts make a time that can exist: a real day of the month (29 February only
    /// in a leap year, or when the year is unknown), hours 0–23, minutes 0–59, seconds 0–60 (a
    /// leap second), and a UTC offset within ±14:00 with minutes 0–59. A header printing
    /// `2014-13-45 99:99:99` or `+9999` is damaged, and its time is not one to order or time by.
    public var isValid: Bool {
        guard (1...12).contains(month), day >= 1, day <= LogTime.daysIn(month: month, year: year),
              (0..<24).contains(hour), (0..<60).contains(minute), (0...60).contains(second),
              (0..<1_000_000).contains(microsecond)
        else { return false }
        if let offset = utcOffsetMinutes, abs(offset) > 14 * 60 { return false }
        return true
    }

    /// Days in `month` of `year`; February has 29 when the year is unknown.
    static func daysIn(month: Int, year: Int?) -> Int {
        switch month {
        case 2:
            guard let year else { return 29 }
            return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

extension LogTime {
    /// Reads a time bound as people type it: `2014-03-02`, `2014-03-02 09:14`,
    /// `2014-03-02 09:14:07`, `2014-03-02T09:14:07.318` (local log time, like the headers).
    public init?(parsing text: String) {
        let bytes = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[from..<from + count] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var hour = 0, minute = 0, second = 0, microsecond = 0, digits = 0
        if bytes.count > 10 {
            guard bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T"),
                  let h = number(11, 2), bytes.count >= 16, bytes[13] == UInt8(ascii: ":"), let m = number(14, 2),
                  h < 24, m < 60
            else { return nil }
            hour = h
            minute = m
            if bytes.count > 16 {
                guard bytes[16] == UInt8(ascii: ":"), let s = number(17, 2), s < 61 else { return nil }
                second = s
                if bytes.count > 19 {
                    guard bytes[19] == UInt8(ascii: ".") || bytes[19] == UInt8(ascii: ","), bytes.count > 20, bytes.count <= 26,
                          let fraction = number(20, bytes.count - 20)
                    else { return nil }
                    digits = bytes.count - 20
                    microsecond = fraction * [1, 100_000, 10_000, 1000, 100, 10, 1][digits]
                }
            }
        }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                  microsecond: microsecond, fractionDigits: digits)
        // 2014-02-31 is no day: refused rather than read as 3 March.
        guard isValid else { return nil }
    }
}

extension LogTime {
    /// The last instant of the period a bound names: `2014-03-02` → the day's last
    /// microsecond, `2014-03-02 09:14` → 09:14:59.999999, `…09:14:07` → 09:14:07.999999,
    /// `…09:14:07.31` → 09:14:07.319999.
    public init?(parsingEndOf text: String) {
        guard var end = LogTime(parsing: text) else { return nil }
        let length = text.utf8.count
        if length <= 10 {
            (end.hour, end.minute, end.second) = (23, 59, 59)
        } else if length <= 16 {
            end.second = 59
        }
        // A bound given to a lower precision covers the whole of its unit: `…:03.123` holds
        // `…:03.123456`.
        let unit = [1_000_000, 100_000, 10_000, 1000, 100, 10, 1][min(end.fractionDigits, 6)]
        end.microsecond += unit - 1
        self = end
    }
}

/// A time's text made on the stack and appended to its destination at once: an array
/// append per digit costs more than the digits.
struct TimeText {
    /// Room for every part at its widest (each an Int of at most 20 characters).
    static let capacity = 256
    private let base: UnsafeMutablePointer<UInt8>
    fileprivate(set) var count = 0

    static func write(into text: inout [UInt8], _ body: (inout TimeText) -> Void) {
        write(then: { text.append(contentsOf: $0) }, body)
    }

    /// What `body` writes, given to `use`.
    static func write<Result>(then use: (UnsafeBufferPointer<UInt8>) -> Result, _ body: (inout TimeText) -> Void) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            // A temporary allocation of a positive capacity always has an address.
            guard let base = buffer.baseAddress else { return use(UnsafeBufferPointer(start: nil, count: 0)) }
            var out = TimeText(base: base)
            body(&out)
            return use(UnsafeBufferPointer(start: out.base, count: out.count))
        }
    }

    private init(base: UnsafeMutablePointer<UInt8>) { self.base = base }

    mutating func byte(_ value: UInt8) {
        guard count < TimeText.capacity else { return }
        base[count] = value
        count += 1
    }

    /// 10 to the power of each width up to 6: the values that many digits hold.
    private static let limits = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000]

    /// `value` in decimal, padded with zeros to `width` digits (a negative value gets its sign).
    mutating func digits(_ value: Int, width: Int) {
        // Two digits (month, day, hour, minute, second, offset): nearly every call.
        if width == 2, (0..<100).contains(value), count + 2 <= TimeText.capacity {
            base[count] = UInt8(ascii: "0") + UInt8(value / 10)
            base[count + 1] = UInt8(ascii: "0") + UInt8(value % 10)
            count += 2
            return
        }
        // A year, a fraction: as many digits as the width, written from the last, each a
        // division by ten (a constant the compiler multiplies by) rather than by a power of ten
        // worked out first.
        if (1...6).contains(width), value >= 0, value < TimeText.limits[width], count + width <= TimeText.capacity {
            var rest = value
            for offset in stride(from: width - 1, through: 0, by: -1) {
                base[count + offset] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            count += width
            return
        }
        if value < 0 { byte(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        var divisor: UInt = 1
        var count = 1
        while divisor <= magnitude / 10 {
            divisor *= 10
            count += 1
        }
        for _ in count..<max(count, width) { byte(UInt8(ascii: "0")) }
        while divisor > 0 {
            byte(UInt8(ascii: "0") + UInt8(magnitude / divisor % 10))
            divisor /= 10
        }
    }
}
