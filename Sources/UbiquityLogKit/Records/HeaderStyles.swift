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
    var date: Range<Int>? { get { places.date.range } set { places.date = TextPlace(newValue) } }
    var time: Range<Int>? { get { places.time.range } set { places.time = TextPlace(newValue) } }
    var frac: Range<Int>? { get { places.frac.range } set { places.frac = TextPlace(newValue) } }
    var tz: Range<Int>? { get { places.tz.range } set { places.tz = TextPlace(newValue) } }
    var month: Range<Int>? { get { places.month.range } set { places.month = TextPlace(newValue) } }
    var day: Range<Int>? { get { places.day.range } set { places.day = TextPlace(newValue) } }
    var process: Range<Int>? { get { places.process.range } set { places.process = TextPlace(newValue) } }
    var pid: Range<Int>? { get { places.pid.range } set { places.pid = TextPlace(newValue) } }
    var thread: Range<Int>? { get { places.thread.range } set { places.thread = TextPlace(newValue) } }
    var device: Range<Int>? { get { places.device.range } set { places.device = TextPlace(newValue) } }
    var level: Range<Int>? { get { places.level.range } set { places.level = TextPlace(newValue) } }
    /// Where the header ends and the logging method or message starts.
    var end: Int

    struct Places {
        var date = TextPlace(), time = TextPlace(), frac = TextPlace(), tz = TextPlace(), month = TextPlace(), day = TextPlace()
        var process = TextPlace(), pid = TextPlace(), thread = TextPlace(), device = TextPlace(), level = TextPlace()
    }

    init(_ style: HeaderStyle, end: Int = 0) {
        self.style = style
        self.end = end
    }

    /// The first style whose branch takes `line`, tried in the pattern's order. The three
    /// styles that start with `dddd-dd-dd` share the date, time, fraction and zone, read once.
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
        fields.date = 0..<10
        fields.time = 11..<19
        let fractionSeparator = cursor.peek
        // `(?:[.:,](?<frac>\d{1,6}))?(?<tz>[+-]\d\d:?\d\d)?`, both optional for NSLog; `log show`
        // styles need both, the fraction after a dot.
        guard cursor.fraction(into: &fields) else { return false }
        if cursor.peek == UInt8(ascii: "+") || cursor.peek == UInt8(ascii: "-") {
            // A sign that starts no zone: no style goes on from it.
            guard let tz = cursor.zone() else { return false }
            fields.tz = tz
            // Each sets its fields only once it has read its whole header.
            if fractionSeparator == UInt8(ascii: "."), logShow(cursor, &fields) || logShowSyslog(cursor, &fields) { return true }
        }
        guard dateTimeSeparator == UInt8(ascii: " "), cursor.take(" ") else { return false }
        return nslog(cursor, &fields)
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
        // `(?<pid>\d+)`
        let pidStart = at
        while at < line.count, HeaderCursor.isDigit(line[at]) { at += 1 }
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
        var fields = HeaderFields(.loggerTimestamp)
        guard cursor.fraction(into: &fields), cursor.take(" ") else { return false }
        fields.date = 0..<10
        fields.time = 11..<19
        fields.end = cursor.at
        result = fields
        return true
    }

    /// Device console: `Mar  2 09:14:07 iPad Journal[412] <Warning>: `, the level optional.
    private static func syslog(_ line: LineBytes, _ result: inout HeaderFields) -> Bool {
        // Filled here and handed over whole: on a line it refuses, the bare style is tried next.
        guard HeaderCursor.isMonthName(line) else { return false }
        var fields = HeaderFields(.syslog)
        var cursor = HeaderCursor(line)
        fields.month = 0..<3
        cursor.at = 3
        // `[ ]{1,2}(?<day>\d{1,2})[ ]`: a third blank, or a third digit, and no way through.
        guard cursor.take(" ") else { return false }
        _ = cursor.take(" ")
        guard let day = cursor.digits(atLeast: 1, atMost: 2), cursor.take(" ") else { return false }
        fields.day = day
        let timeStart = cursor.at
        guard timeStart + 9 <= line.count, WordShape.clock.matches(line, at: timeStart), line[timeStart + 8] == UInt8(ascii: " ") else { return false }
        cursor.at = timeStart + 9
        guard let device = cursor.nonSpace(), cursor.take(" "), let (process, pid) = cursor.processAndPid() else { return false }
        fields.time = timeStart..<timeStart + 8
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
        @inline(__always)
        func lanes(equalTo byte: UInt8) -> UInt64 {
            let differences = value ^ (0x0101_0101_0101_0101 &* UInt64(byte))
            return (differences &- 0x0101_0101_0101_0101) & ~differences & 0x8080_8080_8080_8080
        }
        return lanes(equalTo: UInt8(ascii: "[")) | lanes(equalTo: UInt8(ascii: "]")) | lanes(equalTo: UInt8(ascii: ":"))
            | lanes(equalTo: 0x0A)
    }

    /// Whether the eight bytes at `offset` (which the caller has checked are in the line) have the shape.
    @inline(__always)
    func matches(_ line: LineBytes, at offset: Int) -> Bool {
        let word = UInt64(littleEndian: line.start.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
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

    init(_ line: LineBytes) { self.line = line }

    var peek: UInt8? { at < line.count ? line[at] : nil }

    /// Whether the line starts with an English month's three letters, capitalised.
    static func isMonthName(_ line: LineBytes) -> Bool { line.count >= 3 && monthNumber(line[0], line[1], line[2]) != nil }

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
    func has(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard at + count <= line.count else { return false }
        return memcmp(line.start + at, text.utf8Start, count) == 0
    }

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

    /// `[ \t]+`, as many as there are.
    mutating func blanks() -> Range<Int>? {
        let start = at
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
    /// digits must be too (otherwise what follows would have to start at the separator).
    @inline(__always)
    mutating func fraction(into fields: inout HeaderFields) -> Bool {
        guard let byte = peek, byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ",") else {
            return true
        }
        at += 1
        guard let frac = digits(atLeast: 1, atMost: 6) else { return false }
        fields.frac = frac
        return true
    }

    /// `(?<process>[^\[\n]{1,200}?)\[(?<pid>\d+)\]`: the process runs to the first `[` (it
    /// cannot hold one, so no later `[` is tried).
    mutating func processAndPid() -> (process: Range<Int>, pid: Range<Int>)? {
        let start = at
        guard let bracket = firstOf(UInt8(ascii: "[")), (1...200).contains(bracket - start) else { return nil }
        at = bracket + 1
        guard let pid = digits(atLeast: 1), take("]") else { return nil }
        return (start..<bracket, pid)
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
