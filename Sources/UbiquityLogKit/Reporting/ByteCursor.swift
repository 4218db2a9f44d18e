// Writing a line's fixed parts through one pointer into room checked once: a JSON Lines
// record's head and the timeline's time. Appended piece by piece, each literal would be a check
// of room and of the storage's owner, each number a division per digit.

/// Writes through a pointer into room the caller has checked (`ByteBuffer.write(atMost:)`).
struct ByteCursor {
    let base: UnsafeMutablePointer<UInt8>
    var count = 0

    init(_ base: UnsafeMutablePointer<UInt8>) { self.base = base }

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        base[count] = value
        count &+= 1
    }

    @inline(__always)
    mutating func literal(_ text: StaticString) {
        (base + count).initialize(from: text.utf8Start, count: text.utf8CodeUnitCount)
        count &+= text.utf8CodeUnitCount
    }

    mutating func copy(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { copy($0) }
    }

    mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        (base + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    /// In decimal, as `"\(number)"` writes it (at most 20 bytes): two digits a division, from
    /// a table of every pair.
    mutating func int(_ number: Int) {
        // On a copy of this cursor, whose count stays in a register: stores through `base`
        // may alias this value's own, which would be written back after every byte.
        var out = self
        out.writeInt(number)
        self = out
    }

    @inline(__always)
    private mutating func writeInt(_ number: Int) {
        if number < 0 { byte(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digits = 1
        var limit: UInt = 10
        while magnitude >= limit {
            digits += 1
            if digits == 20 { break }  // UInt.max has 20 digits; 10^20 does not fit
            limit &*= 10
        }
        var index = count &+ digits
        while magnitude >= 100 {
            let pair = Int(magnitude % 100)
            magnitude /= 100
            index &-= 2
            put(pair, at: index)
        }
        if magnitude >= 10 {
            put(Int(magnitude), at: index &- 2)
        } else {
            base[index &- 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
        }
        count &+= digits
    }

    /// Two digits of `value` (0 to 99) at `index`, from the table of pairs.
    @inline(__always)
    private func put(_ value: Int, at index: Int) {
        let digits = Self.pairs.utf8Start + 2 &* value
        base[index] = digits[0]
        base[index &+ 1] = digits[1]
    }

    /// Two digits of `value` (0 to 99). Inlined, as a call per part and signed divisions are
    /// dear for a time's seven parts; the table saves a division and a store per digit.
    @inline(__always)
    mutating func pair(_ value: Int) {
        put(value, at: count)
        count &+= 2
    }

    /// Computed, not stored: a literal needs no lazy global's check to be read.
    private static var pairs: StaticString { "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899" }

    /// `LogTime.iso8601` quoted. A time whose parts fit their widths (every time a
    /// header gives) is written here from its fields; any other as `withISO8601` writes it.
    mutating func time(_ time: LogTime) {
        let offset = time.utcOffsetMinutes ?? 0
        guard (0..<10_000).contains(time.year ?? 0), (0..<100).contains(time.month), (0..<100).contains(time.day),
              (0..<100).contains(time.hour), (0..<100).contains(time.minute), (0..<100).contains(time.second),
              (0..<1_000_000).contains(time.microsecond), offset > -6000, offset < 6000
        else {
            byte(UInt8(ascii: "\""))
            time.withISO8601 { copy($0) }
            byte(UInt8(ascii: "\""))
            return
        }
        var out = self
        out.quotedTime(year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute, second: time.second,
                       microsecond: time.microsecond, fractionDigits: time.fractionDigits, offset: time.utcOffsetMinutes)
        self = out
    }

    /// `time` as `time(_: LogTime)` writes it, read from its bits: no `LogTime` is made.
    mutating func time(_ time: PackedTime) {
        let parts = time.parts
        guard let parts, (parts.year ?? 0) < 10_000, parts.microsecond < 1_000_000,
              (parts.offset ?? 0) > -6000, (parts.offset ?? 0) < 6000
        else {
            if let time = time.time { self.time(time) } else { literal("null") }
            return
        }
        // On a copy, as in `int`.
        var out = self
        out.quotedTime(year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second,
                       microsecond: parts.microsecond, fractionDigits: parts.fractionDigits, offset: parts.offset)
        self = out
    }

    /// The parts, each known to fit its width (a year below 10,000, microseconds below a
    /// million, an offset within ±99:59), as `LogTime.withISO8601` writes them, quoted.
    @inline(__always)
    private mutating func quotedTime(year: Int?, month: Int, day: Int, hour: Int, minute: Int, second: Int,
                                     microsecond: Int, fractionDigits: Int, offset: Int?) {
        byte(UInt8(ascii: "\""))
        if let year {
            pair(year / 100)
            pair(year % 100)
        } else { byte(UInt8(ascii: "-")) }
        byte(UInt8(ascii: "-"))
        pair(month)
        byte(UInt8(ascii: "-"))
        pair(day)
        byte(UInt8(ascii: "T"))
        clock(hour: hour, minute: minute, second: second, microsecond: microsecond, shown: max(0, min(fractionDigits, 6)))
        if let offset {
            byte(UInt8(ascii: offset < 0 ? "-" : "+"))
            pair(abs(offset) / 60)
            byte(UInt8(ascii: ":"))
            pair(abs(offset) % 60)
        }
        byte(UInt8(ascii: "\""))
    }

    /// `LogTime.withClock(maxFractionDigits:)` of a packed time, written from its bits; false,
    /// and nothing written, for a time it cannot write so (none, or microseconds of a million
    /// or more).
    mutating func clock(_ time: PackedTime, maxFractionDigits: Int) -> Bool {
        guard let parts = time.parts, parts.microsecond < 1_000_000 else { return false }
        var out = self
        out.clock(hour: parts.hour, minute: parts.minute, second: parts.second, microsecond: parts.microsecond,
                  shown: max(0, min(parts.fractionDigits, maxFractionDigits, 6)))
        self = out
        return true
    }

    /// `09:14:07.318`: the first `shown` of the six digits of the microseconds (below a million).
    @inline(__always)
    private mutating func clock(hour: Int, minute: Int, second: Int, microsecond: Int, shown: Int) {
        pair(hour)
        byte(UInt8(ascii: ":"))
        pair(minute)
        byte(UInt8(ascii: ":"))
        pair(second)
        if shown > 0 {
            byte(UInt8(ascii: "."))
            // All six digits, the first `shown` of them kept: the room holds a time with six,
            // and what lies past `count` is written over or left unwritten.
            let start = count
            pair(microsecond / 10_000)
            pair(microsecond / 100 % 100)
            pair(microsecond % 100)
            count = start &+ shown
        }
    }
}

extension PackedTime {
    /// The parts as `time` reads them, with no `LogTime` made; nil for no time.
    @inline(__always)
    fileprivate var parts: (year: Int?, month: Int, day: Int, hour: Int, minute: Int, second: Int, microsecond: Int,
                            fractionDigits: Int, offset: Int?)? {
        guard bits != 0 else { return nil }
        func part(_ shift: UInt64, _ width: UInt64) -> Int { Int(truncatingIfNeeded: (bits >> shift) & ((1 << width) - 1)) }
        let year = part(49, 14)
        return (year == 0 ? nil : year - 1, part(45, 4), part(40, 5), part(35, 5), part(29, 6), part(23, 6), part(3, 20), part(0, 3),
                offset == .min ? nil : Int(offset))
    }
}
