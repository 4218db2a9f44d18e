// The header styles read byte by byte, each exactly as its branch of
// `HeaderParser.headerPattern` reads it, at a fraction of the pattern's cost (a header
// starts every record). `HeaderParserTests` runs both on every fixture line and on
// thousands of bent headers and checks they agree on style, every field and the end.
//
// Where a branch's quantifiers could backtrack, the comment says why the first way the
// pattern finds is the one taken here.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a header's parts lie in its line.
struct HeaderFields {
    var style: HeaderStyle
    // Each part's place as two 32-bit offsets: the fields are made, filled and copied for
    // every line that may start a header, and eleven optional ranges of Int took 264 bytes.
    // (A `RecordHead` takes the texts' places as they are.)
    private(set) var places = Places()
    var process: Range<Int>? { get { places.process.range } set { places.process = TextPlace(newValue) } }
    var pid: Range<Int>? { get { places.pid.range } set { places.pid = TextPlace(newValue) } }
    var thread: Range<Int>? { get { places.thread.range } set { places.thread = TextPlace(newValue) } }
    var device: Range<Int>? { get { places.device.range } set { places.device = TextPlace(newValue) } }
    var level: Range<Int>? { get { places.level.range } set { places.level = TextPlace(newValue) } }
    /// Where the header ends and the logging method or message starts.
    var end: Int
    /// The header's time, read by the style readers as they pass it (and by
    /// `HeaderParser.readTime` from the pattern's places): the places of its parts are not
    /// kept, which left six fewer places to clear for every line that may start a header.
    var clock = PackedTime()
    /// The pid, where the reader took its value as it passed it (NSLog); -1 where it did not,
    /// and the value is read from `pid`'s place.
    var pidNumber = -1

    struct Places {
        var process = TextPlace(), pid = TextPlace(), thread = TextPlace(), device = TextPlace(), level = TextPlace()
    }

    init(_ style: HeaderStyle, end: Int = 0) {
        self.style = style
        self.end = end
    }

    /// The first style whose branch takes `line`, tried in the pattern's order. The three
    /// styles that start with `dddd-dd-dd` share the date, time, fraction and zone, read once.
    @inline(__always)
    static func read(_ bytes: UnsafeRawBufferPointer, into fields: inout HeaderFields) -> Bool {
        guard let line = LineBytes(bytes), let first = line.first else { return false }
        guard HeaderCursor.isDigit(first) else { return syslog(line, &fields) || bare(line, &fields) }
        // `dddd-dd-dd` then `[ T]dd:dd:dd`, nineteen bytes read as three words (see `WordShape`):
        // bytes 0–7, 8–9 and 11–18; shorter lines take no style that starts with a digit.
        guard line.count >= 19, WordShape.dateHead.matches(line, at: 0), HeaderCursor.isDigit(line[8]), HeaderCursor.isDigit(line[9])
        else { return logger(line, &fields) }
        fields.style = .nslog
        let dateTimeSeparator = line[10]
        guard dateTimeSeparator == UInt8(ascii: " ") || dateTimeSeparator == UInt8(ascii: "T"),
              WordShape.clock.matches(line, at: 11) else { return false }
        var cursor = HeaderCursor(line)
        cursor.at = 19
        let fractionSeparator = cursor.peek
        // `(?:[.:,](?<frac>\d{1,6}))?(?<tz>[+-]\d\d:?\d\d)?`, both optional for NSLog; `log show`
        // styles need both, the fraction after a dot.
        var fraction = Fraction()
        guard cursor.fraction(&fraction) else { return false }
        var zone: Range<Int>?
        if cursor.peek == UInt8(ascii: "+") || cursor.peek == UInt8(ascii: "-") {
            // A sign that starts no zone: no style goes on from it.
            guard let tz = cursor.zone() else { return false }
            zone = tz
            // Each sets its fields only once it has read its whole header.
            if fractionSeparator == UInt8(ascii: "."), logShow(cursor, &fields) || logShowSyslog(cursor, &fields) {
                fields.clock = dateAndClock(line, fraction, zone: tz)
                return true
            }
        }
        guard dateTimeSeparator == UInt8(ascii: " "), cursor.take(" "), nslog(cursor, &fields) else { return false }
        fields.clock = dateAndClock(line, fraction, zone: zone)
        return true
    }

    /// The time of a header that starts `dddd-dd-dd dd:dd:dd` (or `dddd/dd/dd`), whose digits
    /// the reader has checked, read from the words it checked them in. It used to be read
    /// again from the header's places once the header was read (`HeaderParser.readTime`, now
    /// only the pattern's reading): some 234 instructions a record on the default mix. With
    /// this, the literals compared by word (`LineBytes.has`) and NSLog's quick test for a
    /// type (`dropCompactType`), the header reader went from 1,694 to 1,531 instructions a
    /// record there (callgrind, -q, one thread).
    @inline(__always)
    private static func dateAndClock(_ line: LineBytes, _ fraction: Fraction, zone: Range<Int>?) -> PackedTime {
        let date = WordShape.digitPairs(line.word(at: 0), WordShape.dateHead)
        let clock = WordShape.digitPairs(line.word(at: 11), WordShape.clock)
        var offset: Int?
        if let zone {
            let minutes = Int(line[zone.upperBound - 2] &- UInt8(ascii: "0")) &* 10 &+ Int(line[zone.upperBound - 1] &- UInt8(ascii: "0"))
            // +9999 is no offset (it read as +100:39): the time is damaged.
            guard minutes < 60 else { return PackedTime() }
            let hours = Int(line[zone.lowerBound + 1] &- UInt8(ascii: "0")) &* 10 &+ Int(line[zone.lowerBound + 2] &- UInt8(ascii: "0"))
            let east = hours &* 60 &+ minutes
            offset = line[zone.lowerBound] == UInt8(ascii: "-") ? -east : east
        }
        return PackedTime(checkedYear: WordShape.lane(date, 0) &* 100 &+ WordShape.lane(date, 2), month: WordShape.lane(date, 5),
                          day: Int(line[8] &- UInt8(ascii: "0")) &* 10 &+ Int(line[9] &- UInt8(ascii: "0")),
                          hour: WordShape.lane(clock, 0), minute: WordShape.lane(clock, 3), second: WordShape.lane(clock, 6),
                          microsecond: fraction.microseconds, fractionDigits: fraction.digits, utcOffsetMinutes: offset)
    }

    /// `log show` after the zone: `  0x2f1c  Default  0x0  412  0  Journal: ` (the second number optional).
    private static func logShow(_ start: HeaderCursor, _ fields: inout HeaderFields) -> Bool {
        var cursor = start
        let line = cursor.line
        guard cursor.blanks() != nil, let thread = cursor.hex(), cursor.blanks() != nil, let level = cursor.levelWord(),
              cursor.blanks() != nil, cursor.hex() != nil, cursor.blanks() != nil, let pid = cursor.digits(atLeast: 1),
              let afterPid = cursor.blanks()
        else { return false }
        // `(?:\d+[ \t]+)?(?<process>[^:\n]{1,200}?):[ \t]`: the process runs to the first colon
        // (it cannot hold one). The pattern tries starts from the latest back: after the
        // optional number and its blanks, then giving those blanks back one at a time (down to
        // one), then without the number, giving back the blanks before it. The first start that
        // leaves 1 to 200 bytes before the colon wins; later ones only lengthen the process.
        guard let colon = cursor.firstOf(UInt8(ascii: ":")), HeaderCursor.isBlank(line, colon + 1) else { return false }
        var number = cursor
        var latest = afterPid.upperBound
        if number.digits(atLeast: 1) != nil, let blanks = number.blanks() {
            latest = blanks.upperBound
            // Giving back blanks helps only a colon right after them; one blank stays.
            if colon == latest, blanks.count >= 2 { latest -= 1 }
            if colon == latest { latest = afterPid.upperBound }
        }
        if colon == latest, afterPid.count >= 2 { latest -= 1 }
        guard (1...200).contains(colon - latest) else { return false }
        fields.style = .logShow
        fields.thread = thread
        fields.level = level
        fields.pid = pid
        fields.process = latest..<colon
        fields.end = HeaderCursor.afterSubsystem(line, colon + 2)
        return true
    }

    /// `log show --style syslog` after the zone: `  localhost Journal[412]: `.
    private static func logShowSyslog(_ start: HeaderCursor, _ fields: inout HeaderFields) -> Bool {
        var cursor = start
        guard cursor.blanks() != nil, let device = cursor.nonSpace(), cursor.take(" ") || cursor.take("\t"),
              let (process, pid) = cursor.processAndPid(), cursor.take(":"), cursor.take(" ") || cursor.take("\t")
        else { return false }
        fields.style = .logShowSyslog
        fields.device = device
        fields.process = process
        fields.pid = pid
        fields.end = HeaderCursor.afterSubsystem(cursor.line, cursor.at)
        return true
    }

    /// NSLog after the time and its blank: `Journal[412:60b] `, the thread optional.
    @inline(__always)
    private static func nslog(_ start: HeaderCursor, _ fields: inout HeaderFields) -> Bool {
        let line = start.line
        // `(?<process>[^\[\]\n:]{1,200}?)\[`: the first `[`, with no `]` or `:` before it.
        let processStart = start.at
        var at = processStart
        let limit = min(line.count, processStart + 201)
        // Eight bytes at a time while eight are left before the limit, then one at a time: a
        // byte at a time, the scan cost some 85 instructions an NSLog header; some 22 a record
        // fewer on the default mix this way (callgrind).
        while at + 8 <= limit {
            let stops = WordShape.processStops(in: line.start.loadUnaligned(fromByteOffset: at, as: UInt64.self))
            guard stops == 0 else {
                at += stops.trailingZeroBitCount / 8
                break
            }
            at += 8
        }
        while at < limit, HeaderCursor.mayBeInProcess(line[at]) { at += 1 }
        guard at < limit, line[at] == UInt8(ascii: "["), at > processStart else { return false }
        fields.process = processStart..<at
        at += 1
        // `(?<pid>\d+)`. Where eight bytes are left and a byte other than a digit is among them
        // (nearly always), the digits are counted and their value read as one word: a byte at
        // a time, and read again from its place by `HeaderParser.number`, the pid cost the
        // header reader some 78 instructions more an NSLog header (55 a record on the default
        // mix, 1,354 to 1,300; callgrind, -q, one thread).
        let pidStart = at
        if at + 8 <= line.count, case let stops = WordShape.nonDigits(in: line.word(at: at)), stops != 0 {
            let digits = stops.trailingZeroBitCount / 8
            at += digits
            if digits > 0 { fields.pidNumber = WordShape.decimal(line.word(at: pidStart), digits: digits) }
        } else {
            while at < line.count, HeaderCursor.isDigit(line[at]) { at += 1 }
        }
        guard at > pidStart, at < line.count else { return false }
        fields.pid = pidStart..<at
        // `(?::(?<thread>[0-9A-Fa-fx]{1,20}))?\]`: more than 20 thread bytes, and neither way reaches `]`.
        if line[at] == UInt8(ascii: ":") {
            at += 1
            let threadStart = at
            while at < line.count, HeaderCursor.isThreadByte(line[at]) { at += 1 }
            guard (1...20).contains(at - threadStart) else { return false }
            fields.thread = threadStart..<at
        }
        guard at < line.count, line[at] == UInt8(ascii: "]") else { return false }
        at += 1
        if at < line.count, line[at] == UInt8(ascii: " ") { at += 1 }
        fields.end = at
        return true
    }

    /// A logger's own time: `2014/03/02 09:14:07:318 `.
    private static func logger(_ line: LineBytes, _ result: inout HeaderFields) -> Bool {
        // `dddd/dd/dd dd:dd:dd` as three words: bytes 0–7, 8–10 and 11–18.
        guard line.count >= 19, WordShape.loggerDateHead.matches(line, at: 0), HeaderCursor.isDigit(line[8]),
              HeaderCursor.isDigit(line[9]), line[10] == UInt8(ascii: " "), WordShape.clock.matches(line, at: 11) else { return false }
        var cursor = HeaderCursor(line)
        cursor.at = 19
        var fraction = Fraction()
        guard cursor.fraction(&fraction), cursor.take(" ") else { return false }
        var fields = HeaderFields(.loggerTimestamp)
        fields.end = cursor.at
        fields.clock = dateAndClock(line, fraction, zone: nil)
        result = fields
        return true
    }

    /// Device console: `Mar  2 09:14:07 iPad Journal[412] <Warning>: `, the level optional.
    private static func syslog(_ line: LineBytes, _ result: inout HeaderFields) -> Bool {
        // Filled here and handed over whole: on a line it refuses, the bare style is tried next.
        guard line.count >= 3, let month = HeaderCursor.monthNumber(line[0], line[1], line[2]) else { return false }
        var fields = HeaderFields(.syslog)
        var cursor = HeaderCursor(line)
        cursor.at = 3
        // `[ ]{1,2}(?<day>\d{1,2})[ ]`: a third blank, or a third digit, and no way through.
        guard cursor.take(" ") else { return false }
        _ = cursor.take(" ")
        guard let day = cursor.digits(atLeast: 1, atMost: 2), cursor.take(" ") else { return false }
        let timeStart = cursor.at
        guard timeStart + 9 <= line.count, WordShape.clock.matches(line, at: timeStart), line[timeStart + 8] == UInt8(ascii: " ") else { return false }
        cursor.at = timeStart + 9
        guard let device = cursor.nonSpace(), cursor.take(" "), let (process, pid) = cursor.processAndPid() else { return false }
        // The time as `dateAndClock` reads it, with no year.
        let clock = WordShape.digitPairs(line.word(at: timeStart), WordShape.clock)
        let dayNumber = day.count == 1 ? Int(line[day.lowerBound] &- UInt8(ascii: "0"))
            : Int(line[day.lowerBound] &- UInt8(ascii: "0")) &* 10 &+ Int(line[day.lowerBound + 1] &- UInt8(ascii: "0"))
        fields.clock = PackedTime(checkedYear: nil, month: month, day: dayNumber, hour: WordShape.lane(clock, 0), minute: WordShape.lane(clock, 3),
                                  second: WordShape.lane(clock, 6), microsecond: 0, fractionDigits: 0, utcOffsetMinutes: nil)
        fields.device = device
        fields.process = process
        fields.pid = pid
        // `(?:[ ]<(?<level>\w+)>)?:[ ]`: without the level, `:` would have to stand where its blank is.
        if cursor.take(" ") {
            guard cursor.take("<") else { return false }
            let start = cursor.at
            while cursor.at < line.count, HeaderCursor.isWordByte(line[cursor.at]) { cursor.at += 1 }
            guard cursor.at > start, cursor.take(">") else { return false }
            fields.level = start..<cursor.at - 1
        }
        guard cursor.take(":"), cursor.take(" ") else { return false }
        fields.end = cursor.at
        result = fields
        return true
    }

    /// No header: `(?=(?:__\d+)?[-+]\[|CoreData:[ ]|UbiquityStoreManager:[ ])`, an empty match.
    private static func bare(_ line: LineBytes, _ fields: inout HeaderFields) -> Bool {
        var cursor = HeaderCursor(line)
        if cursor.has("CoreData: ") || cursor.has("UbiquityStoreManager: ") {
            fields.style = .bare
            return true
        }
        if cursor.has("__") {
            cursor.at = 2
            guard cursor.digits(atLeast: 1) != nil else { return false }
        }
        guard cursor.take("-") || cursor.take("+"), cursor.take("[") else { return false }
        fields.style = .bare
        return true
    }
}

/// A header's fraction of a second: microseconds, and how many digits spelt it.
struct Fraction {
    var microseconds = 0
    var digits = 0
}

/// A line's bytes as the header readers index them: a start that cannot be nil, and a count.
/// An `UnsafeRawBufferPointer` checks at every byte it is indexed by whether its start is nil,
/// which nearly doubled the cost of the readers' byte loops (nine instructions a byte for
/// five).
struct LineBytes {
    let start: UnsafeRawPointer
    let count: Int

    /// Nil for a buffer without a start (an empty one).
    init?(_ buffer: UnsafeRawBufferPointer) {
        guard let start = buffer.baseAddress else { return nil }
        self.start = start
        count = buffer.count
    }

    @inline(__always)
    subscript(index: Int) -> UInt8 { start.load(fromByteOffset: index, as: UInt8.self) }

    var first: UInt8? { count > 0 ? self[0] : nil }

    /// The eight bytes from `offset` (which the caller has checked are in the line) as one word,
    /// the first byte in the lowest lane.
    @inline(__always)
    func word(at offset: Int) -> UInt64 { UInt64(littleEndian: start.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }

    /// Whether `text` stands at `index`. The first byte is compared alone (most calls fail on
    /// it), the rest eight (or four) bytes at a time, the last word overlapping the one before:
    /// `text` is a literal, so its words fold to constants where this is inlined. A call to
    /// memcmp for the rest cost some twenty instructions, and the markers and `_block_invoke`
    /// are compared on most header lines.
    @inline(__always)
    func has(_ text: StaticString, at index: Int) -> Bool {
        let count = text.utf8CodeUnitCount
        let literal = UnsafeRawPointer(text.utf8Start)
        guard index >= 0, index + count <= self.count, self[index] == text.utf8Start[0] else { return false }
        switch count {
        case 1:
            return true
        case 2, 3:
            return self[index + 1] == text.utf8Start[1] && (count == 2 || self[index + 2] == text.utf8Start[2])
        case 4...7:
            @inline(__always)
            func half(_ offset: Int) -> Bool {
                start.loadUnaligned(fromByteOffset: index + offset, as: UInt32.self) == literal.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            }
            return half(0) && half(count - 4)
        default:
            @inline(__always)
            func whole(_ offset: Int) -> Bool {
                start.loadUnaligned(fromByteOffset: index + offset, as: UInt64.self) == literal.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            }
            var offset = 0
            while offset + 8 < count {
                guard whole(offset) else { return false }
                offset += 8
            }
            return whole(count - 8)
        }
    }
}

/// Eight bytes of a header's fixed shape (`dddd-dd-`, `dd:dd:dd`), checked as one word: the date
/// and clock start every record of the common styles, and a byte at a time they cost some
/// hundred instructions a header, as one word a dozen.
struct WordShape {
    /// 0xFF in each byte that must be a digit.
    let digitLanes: UInt64
    /// The bytes that must be themselves, 0 where a digit stands.
    let literal: UInt64

    /// `text`'s eight bytes, `d` standing for a digit.
    @inline(__always)
    init(_ text: StaticString) {
        var digitLanes: UInt64 = 0
        var literal: UInt64 = 0
        for lane in 0..<8 {
            let byte = text.utf8Start[lane]
            if byte == UInt8(ascii: "d") { digitLanes |= 0xFF << (8 * lane) } else { literal |= UInt64(byte) << (8 * lane) }
        }
        self.digitLanes = digitLanes
        self.literal = literal
    }

    // Computed, not stored: a stored static is checked for its first use (`swift_once`) on
    // every header, and these fold to constants.
    static var dateHead: WordShape { WordShape("dddd-dd-") }
    static var clock: WordShape { WordShape("dd:dd:dd") }
    static var loggerDateHead: WordShape { WordShape("dddd/dd/") }

    /// The high bit set in each lane of `word` (eight bytes as loaded; lane 0, the lowest, is
    /// the first byte) that holds a byte NSLog's process cannot (`[`, `]`, `:`, line feed), and
    /// perhaps in lanes after the first such: only the lowest lane set is sure (a lane's borrow
    /// reaches the lanes above it only from a lane that holds the byte looked for).
    @inline(__always)
    static func processStops(in word: UInt64) -> UInt64 {
        let value = UInt64(littleEndian: word)
        return lanes(of: value, equalTo: UInt8(ascii: "[")) | lanes(of: value, equalTo: UInt8(ascii: "]"))
            | lanes(of: value, equalTo: UInt8(ascii: ":")) | lanes(of: value, equalTo: 0x0A)
    }

    /// The high bit set in each lane of `word` that holds `byte`, and perhaps in lanes after the
    /// first such: only the lowest lane set is sure (a lane's borrow reaches the lanes above it
    /// only from a lane that holds `byte`).
    @inline(__always)
    static func lanes(of word: UInt64, equalTo byte: UInt8) -> UInt64 {
        let differences = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        return (differences &- 0x0101_0101_0101_0101) & ~differences & 0x8080_8080_8080_8080
    }

    /// The digits of `word`, which has `shape` (checked), as two-digit numbers: each digit lane
    /// holds ten times its digit plus the next lane's (the next lane 0 if it is no digit). The
    /// other lanes are cleared first, so no lane carries into the next (each holds at most 99).
    @inline(__always)
    static func digitPairs(_ word: UInt64, _ shape: WordShape) -> UInt64 {
        let values = (word ^ 0x3030_3030_3030_3030) & shape.digitLanes
        return values &* 10 &+ (values >> 8)
    }

    /// The high bit set in each lane of `word` that holds no digit, and perhaps in lanes after
    /// the first such: only the lowest lane set is sure (see `matches` for the sum).
    @inline(__always)
    static func nonDigits(in word: UInt64) -> UInt64 {
        let values = word ^ 0x3030_3030_3030_3030
        return (values | (values &+ 0x7676_7676_7676_7676)) & 0x8080_8080_8080_8080
    }

    /// The number the first `digits` (1 to 7) lanes of `word` spell, each a digit: the digits
    /// moved to the top lanes (zeros before them), then added up in pairs, fours and eights.
    @inline(__always)
    static func decimal(_ word: UInt64, digits: Int) -> Int {
        eightDigits((word ^ 0x3030_3030_3030_3030) << UInt64(64 &- 8 &* digits))
    }

    /// The eight-digit number whose digits' values (not bytes) are the lanes of
    /// `digitValues`, the first in the lowest.
    @inline(__always)
    private static func eightDigits(_ digitValues: UInt64) -> Int {
        var value = digitValues
        value = ((value &* 2561) >> 8) & 0x00FF_00FF_00FF_00FF
        value = ((value &* 6_553_601) >> 16) & 0x0000_FFFF_0000_FFFF
        return Int(truncatingIfNeeded: (value &* 42_949_672_960_001) >> 32)
    }

    /// The high bit set in each lane of `word` that holds neither a blank nor a tab, exactly
    /// (each lane tested for a non-zero byte on its low seven bits, so no lane carries into
    /// the next).
    @inline(__always)
    static func nonBlanks(in word: UInt64) -> UInt64 {
        @inline(__always)
        func nonZero(_ lanes: UInt64) -> UInt64 {
            (((lanes & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | lanes) & 0x8080_8080_8080_8080
        }
        return nonZero(word ^ 0x2020_2020_2020_2020) & nonZero(word ^ 0x0909_0909_0909_0909)
    }

    /// The microseconds the first `digits` (1 to 6) lanes of `word` spell as a fraction of a
    /// second, each a digit: the digits kept in place and moved up two lanes, so that they and
    /// the zeros after them read as six digits (`decimal` of eight, the first two zero).
    @inline(__always)
    static func microseconds(_ word: UInt64, digits: Int) -> Int {
        let kept = (word ^ 0x3030_3030_3030_3030) & ((1 << UInt64(8 &* digits)) &- 1)
        return eightDigits(kept << 16)
    }

    /// Lane `index` of `word` (lane 0 the lowest).
    @inline(__always)
    static func lane(_ word: UInt64, _ index: UInt64) -> Int { Int(truncatingIfNeeded: (word >> (8 &* index)) & 0xFF) }

    /// Whether the eight bytes at `offset` (which the caller has checked are in the line) have the shape.
    @inline(__always)
    func matches(_ line: LineBytes, at offset: Int) -> Bool {
        let word = line.word(at: offset)
        guard word & ~digitLanes == literal else { return false }
        // Each digit lane less '0': a digit leaves 0–9, and 0–9 are the values to which adding
        // 0x76 leaves the top bit clear (a lane of 0x80 or more has it set already; what it
        // carries into the next lane does not matter, the word is refused either way).
        let values = (word ^ 0x3030_3030_3030_3030) & digitLanes
        return (values | (values &+ 0x7676_7676_7676_7676)) & digitLanes & 0x8080_8080_8080_8080 == 0
    }
}

/// A position in a line and the small steps the header readers are made of. A step that
/// fails leaves the position where it was only when it says so; readers give up on failure.
/// The steps every header takes are inlined into the readers (`@inline(__always)`): called, they
/// and the stored `WordShape` statics cost some 75 instructions a record more on the default mix
/// (callgrind).
struct HeaderCursor {
    let line: LineBytes
    var at = 0

    init(_ line: LineBytes, at: Int = 0) {
        self.line = line
        self.at = at
    }

    var peek: UInt8? { at < line.count ? line[at] : nil }

    /// 1 for `Jan` … 12 for `Dec` at the start of `bytes`.
    static func monthNumber(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= 3 else { return nil }
        return monthNumber(bytes[0], bytes[1], bytes[2])
    }

    /// 1 for `Jan` … 12 for `Dec`, spelt by three bytes.
    static func monthNumber(_ first: UInt8, _ second: UInt8, _ third: UInt8) -> Int? {
        // The three bytes as one number, and a switch over the twelve (a few comparisons, where a
        // search of a table cost one each): every line that starts with a capital asks.
        switch UInt32(first) << 16 | UInt32(second) << 8 | UInt32(third) {
        case 0x4A_616E: return 1 // Jan
        case 0x46_6562: return 2 // Feb
        case 0x4D_6172: return 3 // Mar
        case 0x41_7072: return 4 // Apr
        case 0x4D_6179: return 5 // May
        case 0x4A_756E: return 6 // Jun
        case 0x4A_756C: return 7 // Jul
        case 0x41_7567: return 8 // Aug
        case 0x53_6570: return 9 // Sep
        case 0x4F_6374: return 10 // Oct
        case 0x4E_6F76: return 11 // Nov
        case 0x44_6563: return 12 // Dec
        default: return nil
        }
    }

    /// Whether the line goes on with `text` at the position (which does not move).
    @inline(__always)
    func has(_ text: StaticString) -> Bool { line.has(text, at: at) }

    /// Takes `byte` if it is next.
    @inline(__always)
    mutating func take(_ byte: Unicode.Scalar) -> Bool {
        guard at < line.count, line[at] == UInt8(ascii: byte) else { return false }
        at += 1
        return true
    }

    /// Takes `shape`, where `d` stands for a digit and anything else for itself.
    @inline(__always)
    mutating func shape(_ shape: StaticString) -> Bool {
        let pattern = UnsafeBufferPointer(start: shape.utf8Start, count: shape.utf8CodeUnitCount)
        guard at + pattern.count <= line.count else { return false }
        for (offset, expected) in pattern.enumerated() {
            let byte = line[at + offset]
            if expected == UInt8(ascii: "d") ? !HeaderCursor.isDigit(byte) : byte != expected { return false }
        }
        at += pattern.count
        return true
    }

    /// A run of digits as long as it goes, if its length is from `least` to `most`: a digit left
    /// after the most the pattern allows is one no later part of a header accepts.
    @inline(__always)
    mutating func digits(atLeast least: Int, atMost most: Int = .max) -> Range<Int>? {
        let start = at
        var end = at
        while end < line.count, HeaderCursor.isDigit(line[end]) { end += 1 }
        guard end - start >= least, end - start <= most else { return nil }
        at = end
        return start..<end
    }

    /// `[ \t]+`, as many as there are. Eight bytes at a time where eight are left: `log show`
    /// pads its columns with runs of up to some twenty blanks, at some six instructions a
    /// blank one at a time.
    mutating func blanks() -> Range<Int>? {
        let start = at
        while at + 8 <= line.count {
            let others = WordShape.nonBlanks(in: line.word(at: at))
            guard others == 0 else {
                at += others.trailingZeroBitCount / 8
                return at > start ? start..<at : nil
            }
            at += 8
        }
        while HeaderCursor.isBlank(line, at) { at += 1 }
        return at > start ? start..<at : nil
    }

    /// `0x[0-9a-fA-F]+`.
    mutating func hex() -> Range<Int>? {
        let start = at
        guard take("0"), take("x") else { return nil }
        let digitsStart = at
        while at < line.count, HeaderCursor.isHexDigit(line[at]) { at += 1 }
        return at > digitsStart ? start..<at : nil
    }

    /// `[A-Z][a-z]+`.
    mutating func levelWord() -> Range<Int>? {
        let start = at
        guard at < line.count, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(line[at]) else { return nil }
        at += 1
        while at < line.count, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(line[at]) { at += 1 }
        return at > start + 1 ? start..<at : nil
    }

    /// `\S+`: bytes that are not white space as PCRE2 reads it without Unicode (blank, tab,
    /// line feed, vertical tab, form feed, carriage return).
    mutating func nonSpace() -> Range<Int>? {
        let start = at
        while at < line.count, !HeaderCursor.isSpace(line[at]) { at += 1 }
        return at > start ? start..<at : nil
    }

    /// `[+-]\d\d:?\d\d`. A colon is taken when there is one: without it a digit would have to
    /// stand where the colon is.
    mutating func zone() -> Range<Int>? {
        let start = at
        guard take("+") || take("-"), shape("dd") else { return nil }
        _ = take(":")
        guard shape("dd") else { return nil }
        return start..<at
    }

    /// `(?:[.:,](?<frac>\d{1,6}))?` before a blank or a zone: if a separator is there, its
    /// digits must be too (otherwise what follows would have to start at the separator). Its
    /// value is taken as the digits pass.
    @inline(__always)
    mutating func fraction(_ fraction: inout Fraction) -> Bool {
        guard let byte = peek, byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ",") else {
            return true
        }
        at += 1
        let start = at
        // Where eight bytes are left and a byte other than a digit is among them (every
        // header: a blank or a zone follows), the digits are counted and read as one word,
        // already scaled: a byte at a time, with the scale chosen after, the fraction cost some
        // 33 instructions a record on the default mix. (This, `blanks`, `firstBracket` and
        // `Prefix.marker`'s single `CoreData: ` took the header reader from 1,300 to 1,263
        // instructions a record there, 1,679 to 1,627 on ~420-byte records; callgrind, -q,
        // one thread.)
        if at + 8 <= line.count, case let stops = WordShape.nonDigits(in: line.word(at: at)), stops != 0 {
            let digits = stops.trailingZeroBitCount / 8
            guard digits >= 1, digits <= 6 else { return false }
            at += digits
            fraction = Fraction(microseconds: WordShape.microseconds(line.word(at: start), digits: digits), digits: digits)
            return true
        }
        var value = 0
        while at < line.count {
            let digit = line[at] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            value = value &* 10 &+ Int(digit)
            at += 1
        }
        let digits = at - start
        guard digits >= 1, digits <= 6 else { return false }
        // Scaled to six digits (a switch: an array of powers is checked for its first use on every call).
        switch digits {
        case 1: value &*= 100_000
        case 2: value &*= 10_000
        case 3: value &*= 1000
        case 4: value &*= 100
        case 5: value &*= 10
        default: break
        }
        fraction = Fraction(microseconds: value, digits: digits)
        return true
    }

    /// `(?<process>[^\[\n]{1,200}?)\[(?<pid>\d+)\]`: the process runs to the first `[` (it
    /// cannot hold one, so no later `[` is tried).
    mutating func processAndPid() -> (process: Range<Int>, pid: Range<Int>)? {
        let start = at
        guard let bracket = firstBracket(), (1...200).contains(bracket - start) else { return nil }
        at = bracket + 1
        guard let pid = digits(atLeast: 1), take("]") else { return nil }
        return (start..<bracket, pid)
    }

    /// The index of the first `[` from the position on, if no line feed comes first: `firstOf`
    /// eight bytes at a time where eight are left. A byte at a time, the syslog styles' search
    /// for the `[` after the process cost some 88 instructions a header.
    @inline(__always)
    func firstBracket() -> Int? {
        var index = at
        while index + 8 <= line.count {
            let word = line.word(at: index)
            let found = WordShape.lanes(of: word, equalTo: UInt8(ascii: "[")) | WordShape.lanes(of: word, equalTo: 0x0A)
            guard found == 0 else {
                index += found.trailingZeroBitCount / 8
                return line[index] == UInt8(ascii: "[") ? index : nil
            }
            index += 8
        }
        return HeaderCursor(line, at: index).firstOf(UInt8(ascii: "["))
    }

    /// The index of the first `byte` from the position on, if no line feed, `stop` or `otherStop`
    /// comes first.
    func firstOf(_ byte: UInt8, stoppingAt stop: UInt8 = 0x0A, or otherStop: UInt8 = 0x0A) -> Int? {
        var index = at
        while index < line.count {
            let next = line[index]
            if next == byte { return index }
            if next == 0x0A || next == stop || next == otherStop { return nil }
            index += 1
        }
        return nil
    }

    /// After the `log show` styles' `:[ \t]`, where the header ends:
    /// past `(?:\([^)\n]{1,100}\)[ \t])?`, a subsystem in parentheses, when there is one.
    static func afterSubsystem(_ line: LineBytes, _ start: Int) -> Int {
        var cursor = HeaderCursor(line)
        cursor.at = start
        guard cursor.take("("), let close = cursor.firstOf(UInt8(ascii: ")")),
              (1...100).contains(close - cursor.at), isBlank(line, close + 1) else { return start }
        return close + 2
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    @inline(__always)
    static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20) &- UInt8(ascii: "a") < 6
    }

    @inline(__always)
    static func isThreadByte(_ byte: UInt8) -> Bool { isHexDigit(byte) || byte == UInt8(ascii: "x") }

    /// What NSLog's process may hold: `[^\[\]\n:]`.
    @inline(__always)
    static func mayBeInProcess(_ byte: UInt8) -> Bool {
        byte != UInt8(ascii: "[") && byte != UInt8(ascii: "]") && byte != UInt8(ascii: ":") && byte != 0x0A
    }

    /// `\w` without Unicode: letters, digits and the underscore.
    static func isWordByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte == UInt8(ascii: "_")
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    static func isBlank(_ line: LineBytes, _ index: Int) -> Bool {
        index < line.count && (line[index] == 0x20 || line[index] == 0x09)
    }
}
