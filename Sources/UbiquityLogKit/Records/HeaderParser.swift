// Tells whether a line starts a record and, when it does, reads its header: time,
// process, pid, thread, device, level, then the logging method and the marker.
import PCRE2
#if canImport(Glibc)
import Glibc
#endif

public final class HeaderParser {
    /// The header styles, in the order of the `(*MARK:n)` numbers in `headerPattern`.
    private static let styles: [HeaderStyle] = [.logShow, .logShowSyslog, .nslog, .loggerTimestamp, .syslog, .bare]

    // One anchored pattern, one branch per style. `log show` styles come before NSLog's:
    // their headers also start with a date and NSLog's branch must not swallow them.
    static let headerPattern = #"""
    (?:(*MARK:0)(?<date>\d{4}-\d\d-\d\d)[ T](?<time>\d\d:\d\d:\d\d)\.(?<frac>\d{1,6})(?<tz>[+-]\d\d:?\d\d)[ \t]+(?<thread>0x[0-9a-fA-F]+)[ \t]+(?<level>[A-Z][a-z]+)[ \t]+0x[0-9a-fA-F]+[ \t]+(?<pid>\d+)[ \t]+(?:\d+[ \t]+)?(?<process>[^:\n]{1,200}?):[ \t](?:\([^)\n]{1,100}\)[ \t])?
    |(*MARK:1)(?<date>\d{4}-\d\d-\d\d)[ T](?<time>\d\d:\d\d:\d\d)\.(?<frac>\d{1,6})(?<tz>[+-]\d\d:?\d\d)[ \t]+(?<device>\S+)[ \t](?<process>[^\[\n]{1,200}?)\[(?<pid>\d+)\]:[ \t](?:\([^)\n]{1,100}\)[ \t])?
    |(*MARK:2)(?<date>\d{4}-\d\d-\d\d)[ ](?<time>\d\d:\d\d:\d\d)(?:[.:,](?<frac>\d{1,6}))?(?<tz>[+-]\d\d:?\d\d)?[ ](?<process>[^\[\]\n:]{1,200}?)\[(?<pid>\d+)(?::(?<thread>[0-9A-Fa-fx]{1,20}))?\][ ]?
    |(*MARK:3)(?<date>\d{4}/\d\d/\d\d)[ ](?<time>\d\d:\d\d:\d\d)(?:[.:,](?<frac>\d{1,6}))?[ ]
    |(*MARK:4)(?<mon>Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[ ]{1,2}(?<day>\d{1,2})[ ](?<time>\d\d:\d\d:\d\d)[ ](?<device>\S+)[ ](?<process>[^\[\n]{1,200}?)\[(?<pid>\d+)\](?:[ ]<(?<level>\w+)>)?:[ ]
    |(*MARK:5)(?=(?:__\d+)?[-+]\[|CoreData:[ ]|UbiquityStoreManager:[ ])
    )
    """#

    // Anchored where the header ends: the logging method and its source line (block names
    // included), then the marker, which some messages print twice.
    static let prefixPattern = #"""
    (?:(?<method>(?:__\d+)?[-+]\[[^\]\n]{1,400}\](?:_block_invoke(?:_\d+)?)?)\((?<line>\d+)\):[ ]?)?
    (?:(?<ubiquity>(?:CoreData:[ ]Ubiquity:[ \t]*)+)|(?<error>CoreData:[ ](?:(?:error|fault):[ ]?|(?=Illegal[ ]attempt[ ])))|(?<usm>UbiquityStoreManager:[ ]?))?
    """#

    /// The patterns, compiled only when a test reads by them (see `readsByHand`).
    private lazy var patterns = Patterns()
    /// The logging methods `parsePrefix` makes texts of (NDJSON messages), made once each.
    /// Headers have no texts made (see `RecordHead`).
    private lazy var methodTexts = RecurringTexts()

    private enum Group: Int, CaseIterable {
        case date, time, frac, tz, mon, day, process, pid, thread, device, level
        case method, line, ubiquity, error, usm

        var index: Int { rawValue }
        /// The name of the pattern's group.
        var name: String { String(describing: self) }
    }

    /// Styles that may start a record; a line in another style continues the open one.
    private let allowedStyles: Set<HeaderStyle>?
    /// Whether headers and what follows them are read by `HeaderFields` and `Prefix` rather
    /// than by the patterns (off only in the test that checks the two agree).
    var readsByHand = true

    public init(styles allowedStyles: Set<HeaderStyle>? = nil) {
        self.allowedStyles = allowedStyles
    }

    /// The two patterns and their group numbers, looked up once and indexed by `Group.index`.
    private final class Patterns {
        let header: Matcher
        let prefix: Matcher
        let groups: [[Int]]

        init() {
            // The patterns are constants of this file; a failure to compile is a programming error
            // that every test run would show at once.
            do {
                header = Matcher(try Regex(HeaderParser.headerPattern.replacingNewlines, options: [.anchored, .duplicateNames]))
                prefix = Matcher(try Regex(HeaderParser.prefixPattern.replacingNewlines, options: [.anchored]))
            } catch {
                fatalError("header patterns do not compile: \(error)")
            }
            var groups = [[Int]](repeating: [], count: Group.allCases.count)
            for group in Group.allCases {
                groups[group.index] = header.regex.groupNumbers[group.name] ?? prefix.regex.groupNumbers[group.name] ?? []
            }
            self.groups = groups
        }

        func range(_ group: Group) -> Range<Int>? { header.range(ofFirstOf: groups[group.index]) }
        func prefixRange(_ group: Group) -> Range<Int>? { prefix.range(ofFirstOf: groups[group.index]) }
    }

    /// If `line` starts a record, its header (texts made into Strings) and where the message body starts.
    public func parse(_ line: UnsafeRawBufferPointer) -> (header: Header, bodyStart: Int)? {
        var head: RecordHead?
        guard let bodyStart = parse(line, into: &head), let head else { return nil }
        return (head.header(in: line), bodyStart)
    }

    /// If `line` starts a record, puts its header in `head` and returns where the message
    /// body starts; otherwise leaves `head` alone. One pass over the line's start by the style
    /// readers, then the prefix: the header's texts stay where they are, as places in the line
    /// (see `RecordHead`), and nothing is made or looked up. Package-wide for the floor probe
    /// (`ParselogsDevTools`), which reads headers as the assembler does.
    package func parse(_ line: UnsafeRawBufferPointer, into head: inout RecordHead?) -> Int? {
        guard let first = line.first else { return nil }
        var fields = HeaderFields(.bare)
        // A first byte that no style starts with: most continuation lines stop there.
        guard HeaderParser.canStartHeader(first),
              readsByHand ? HeaderFields.read(line, into: &fields) : fieldsByPattern(line, into: &fields)
        else { return parseHeaderless(line, into: &head) }
        if let allowedStyles, !allowedStyles.contains(fields.style) { return nil }
        if fields.style == .nslog { HeaderParser.dropCompactType(line, &fields) }
        var prefix = prefixRanges(line, from: fields.end, oneLine: true)
        if prefix.marker == nil, let loose = LooseMarkers.afterHeader(line, style: fields.style, prefix: prefix) {
            prefix.take(loose)
            if fields.thread == nil { fields.thread = loose.thread }
        }
        var read = RecordHead(style: fields.style, marker: prefix.marker, clock: fields.clock,
                              pid: fields.pidNumber >= 0 ? fields.pidNumber : HeaderParser.number(line, fields.pid), sourceLine: HeaderParser.number(line, prefix.sourceLine))
        let places = fields.places
        read.process = places.process
        read.thread = places.thread
        read.device = places.device
        read.level = places.level
        read.method = TextPlace(prefix.method)
        head = read
        return prefix.end
    }

    /// A line in no header style that holds a family's marker near its start: a record pasted
    /// without its header, or behind a logger's own prefix.
    @inline(__always)
    private func parseHeaderless(_ line: UnsafeRawBufferPointer, into head: inout RecordHead?) -> Int? {
        guard allowedStyles?.contains(.bare) ?? true, let loose = LooseMarkers.headerless(line) else { return nil }
        var read = RecordHead(style: .bare, marker: loose.marker, clock: PackedTime(), pid: nil,
                              sourceLine: HeaderParser.number(line, loose.sourceLine))
        read.method = TextPlace(loose.method)
        head = read
        return loose.end
    }

    /// `log stream --style compact` prints the entry's type between the time and the process
    /// (`2025-06-03 10:15:42.118 Df Recipes[2210:8e41f] `), which the NSLog reading takes as the
    /// process's first word: the type is the header's level, the rest its process.
    @inline(__always)
    static func dropCompactType(_ line: UnsafeRawBufferPointer, _ fields: inout HeaderFields) {
        guard let process = fields.process, process.count > 3 else { return }
        let start = process.lowerBound
        // A type is one or two letters and a blank: a process with no blank second or third
        // (nearly every one) is left at once (every NSLog header asks).
        guard line[start + 1] == 0x20 || line[start + 2] == 0x20 else { return }
        var end = start
        while end < process.upperBound, end - start < 2, (UInt8(ascii: "A")...UInt8(ascii: "z")).contains(line[end]) { end += 1 }
        guard end < process.upperBound, line[end] == 0x20, isCompactType(line, start..<end) else { return }
        fields.level = start..<end
        fields.process = end + 1..<process.upperBound
    }

    /// Whether `line[range]` (one or two letters) is a type code of `log`'s compact style:
    /// default, info, debug, error, fault, activity. Compared in place: every NSLog header asks.
    private static func isCompactType(_ line: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        let first = line[range.lowerBound]
        guard range.count == 2 else { return range.count == 1 && (first == UInt8(ascii: "I") || first == UInt8(ascii: "E") || first == UInt8(ascii: "F") || first == UInt8(ascii: "A")) }
        switch (first, line[range.lowerBound + 1]) {
        case (UInt8(ascii: "D"), UInt8(ascii: "f")), (UInt8(ascii: "D"), UInt8(ascii: "b")), (UInt8(ascii: "E"), UInt8(ascii: "r")), (UInt8(ascii: "F"), UInt8(ascii: "t")):
            return true
        default:
            return false
        }
    }

    /// The header as `headerPattern` reads it: the definition the style readers are held to.
    private func fieldsByPattern(_ line: UnsafeRawBufferPointer, into fields: inout HeaderFields) -> Bool {
        let header = patterns.header
        guard (try? header.matches(line, anchored: true)) == true,
              let mark = header.numericMark, mark < HeaderParser.styles.count,
              let whole = header.range(ofGroup: 0)
        else { return false }
        fields = HeaderFields(HeaderParser.styles[mark], end: whole.upperBound)
        let range = patterns.range
        fields.clock = readTime(line, TimePlaces(date: range(.date), time: range(.time), frac: range(.frac), tz: range(.tz),
                                                 month: range(.mon), day: range(.day)))
        fields.process = range(.process)
        fields.pid = range(.pid)
        fields.thread = range(.thread)
        fields.device = range(.device)
        fields.level = range(.level)
        return true
    }

    /// What follows a header (or starts a message without one): the logging method and its
    /// source line, then the marker; and where the message body starts.
    public func parsePrefix(_ bytes: UnsafeRawBufferPointer, from start: Int)
        -> (method: String?, sourceLine: Int?, marker: Marker?, bodyStart: Int) {
        let prefix = prefixRanges(bytes, from: start, oneLine: false)
        return (prefix.method.map { methodTexts.text(bytes, $0) }, prefix.sourceLine.flatMap { decimal(bytes, $0) }, prefix.marker, prefix.end)
    }

    /// The prefix as `Prefix` reads it, or as `prefixPattern` does (see `readsByHand`).
    /// `oneLine`: `bytes` hold no line feed (a header's line, as the reader splits them), and
    /// none is looked for (see `Prefix.method`).
    ///
    /// This, `ownPrefixRanges`, `Prefix`'s readers, `takeCloudKitToken` and `dropCompactType`
    /// are asked to be inlined (the compiler takes most of them): each runs once a header, and
    /// their calls, entries and returns cost the header reader some 90 instructions a record on
    /// the default mix (callgrind, -q, one thread; with `HeaderFields` keeping no places of the
    /// time's parts, 1,446 to 1,354 a record).
    @inline(__always)
    private func prefixRanges(_ bytes: UnsafeRawBufferPointer, from start: Int, oneLine: Bool) -> Prefix {
        var found = ownPrefixRanges(bytes, from: start, oneLine: oneLine)
        found.takeCloudKitToken(bytes, oneLine: oneLine)
        return found
    }

    @inline(__always)
    private func ownPrefixRanges(_ bytes: UnsafeRawBufferPointer, from start: Int, oneLine: Bool) -> Prefix {
        if readsByHand, start <= bytes.count { return Prefix(bytes, from: start, oneLine: oneLine) }
        let prefix = patterns.prefix
        let prefixRange = patterns.prefixRange
        var found = Prefix(empty: start)
        guard start <= bytes.count, (try? prefix.matches(bytes, from: start, anchored: true)) == true else { return found }
        found.method = prefixRange(.method)
        found.sourceLine = prefixRange(.line)
        if prefixRange(.ubiquity) != nil {
            found.marker = .ubiquity
        } else if prefixRange(.error) != nil {
            found.marker = .coreDataError
        } else if prefixRange(.usm) != nil {
            found.marker = .storeManager
        }
        found.end = prefix.range(ofGroup: 0)?.upperBound ?? start
        return found
    }

    /// First bytes a header can start with: digits, the capitals of month names and markers,
    /// and the characters that open a logging method. A switch, not a table: a table in a
    /// global is checked for its first use on every line.
    @inline(__always)
    private static func canStartHeader(_ first: UInt8) -> Bool {
        switch first {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "J"), UInt8(ascii: "F"), UInt8(ascii: "M"), UInt8(ascii: "A"),
             UInt8(ascii: "S"), UInt8(ascii: "O"), UInt8(ascii: "N"), UInt8(ascii: "D"), UInt8(ascii: "C"), UInt8(ascii: "U"),
             UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }

    /// Where the pattern found the parts of a header's time.
    private struct TimePlaces {
        var date, time, frac, tz, month, day: Range<Int>?
    }

    /// The header's time, packed (see `PackedTime`), from the places the pattern found: the
    /// definition the style readers' own reading (`HeaderFields.clock`) is held to. Checked on
    /// the integers, and never built into a `LogTime` here (only a caller that asks for the time
    /// does that; see `Header.clock` for what that saved).
    private func readTime(_ line: UnsafeRawBufferPointer, _ fields: TimePlaces) -> PackedTime {
        guard let time = fields.time, time.count == 8, let bytes = LineBytes(line) else { return PackedTime() }
        // The pattern found digits at these places, at most six of a fraction and two of a day:
        // they are not checked again.
        @inline(__always)
        func number(_ start: Int, _ count: Int) -> Int {
            var value = 0
            for index in start..<start + count { value = value &* 10 &+ Int(bytes[index] &- UInt8(ascii: "0")) }
            return value
        }
        @inline(__always)
        func twoDigits(_ start: Int) -> Int { Int(bytes[start] &- UInt8(ascii: "0")) &* 10 &+ Int(bytes[start + 1] &- UInt8(ascii: "0")) }
        @inline(__always)
        func digitWord(_ start: Int) -> UInt64 {
            UInt64(littleEndian: bytes.start.loadUnaligned(fromByteOffset: start, as: UInt64.self)) ^ 0x3030_3030_3030_3030
        }
        @inline(__always)
        func lane(_ word: UInt64, _ index: UInt64) -> Int { Int(truncatingIfNeeded: (word >> (8 &* index)) & 0xFF) }
        let clock = digitWord(time.lowerBound)
        let hour = lane(clock, 0) &* 10 &+ lane(clock, 1)
        let minute = lane(clock, 3) &* 10 &+ lane(clock, 4)
        let second = lane(clock, 6) &* 10 &+ lane(clock, 7)
        var year: Int?
        var month = 1
        var day = 1
        if let date = fields.date, date.count == 10 {
            let head = digitWord(date.lowerBound)
            year = ((lane(head, 0) &* 10 &+ lane(head, 1)) &* 10 &+ lane(head, 2)) &* 10 &+ lane(head, 3)
            month = lane(head, 5) &* 10 &+ lane(head, 6)
            day = twoDigits(date.lowerBound + 8)
        } else if let name = fields.month, let dayRange = fields.day {
            month = HeaderCursor.monthNumber(UnsafeRawBufferPointer(rebasing: line[name])) ?? 1
            day = number(dayRange.lowerBound, dayRange.count)
        }
        var microsecond = 0
        var digits = 0
        if let fraction = fields.frac {
            digits = fraction.count
            microsecond = number(fraction.lowerBound, digits)
            // Scaled to six digits (a switch: an array of powers is checked for its first use on every call).
            switch digits {
            case 1: microsecond &*= 100_000
            case 2: microsecond &*= 10_000
            case 3: microsecond &*= 1000
            case 4: microsecond &*= 100
            case 5: microsecond &*= 10
            default: break
            }
        }
        var offset: Int?
        if let zone = fields.tz, zone.count >= 5 {
            let sign = bytes[zone.lowerBound] == UInt8(ascii: "-") ? -1 : 1
            let hours = twoDigits(zone.lowerBound + 1)
            let minutes = twoDigits(zone.upperBound - 2)
            // +9999 is no offset (it read as +100:39): the time is damaged.
            guard minutes < 60 else { return PackedTime() }
            offset = sign * (hours * 60 + minutes)
        }
        return PackedTime(checkedYear: year, month: month, day: day, hour: hour, minute: minute, second: second,
                          microsecond: microsecond, fractionDigits: digits, utcOffsetMinutes: offset)
    }

    /// The number a pid or source line spells, as `decimal` reads it (nil past 18 digits). Every
    /// reader (and pattern) takes these as `\d+`, so the digits are not checked again, and the
    /// loop is inlined here: called for `decimal` it cost some 75 instructions a number.
    @inline(__always)
    private static func number(_ line: UnsafeRawBufferPointer, _ range: Range<Int>?) -> Int? {
        guard let range, !range.isEmpty, range.count <= 18, range.upperBound <= line.count, let base = line.baseAddress else { return nil }
        var value = 0
        for index in range { value = value &* 10 &+ Int(base.load(fromByteOffset: index, as: UInt8.self) &- UInt8(ascii: "0")) }
        return value
    }
}

extension PackedTime {
    /// A header's time, or no time where it cannot exist (2014-13-45 99:99:99): such a header
    /// still starts a record, without a time, since passing it on would order, window and time
    /// events by nonsense. The checks of `LogTime.isValid`, on the integers (a fraction of at
    /// most six digits is below a million, and each part was read from at most its digits).
    @inline(__always)
    init(checkedYear year: Int?, month: Int, day: Int, hour: Int, minute: Int, second: Int, microsecond: Int, fractionDigits: Int,
         utcOffsetMinutes offset: Int?) {
        guard (1...12).contains(month), day >= 1, day <= LogTime.daysIn(month: month, year: year),
              hour < 24, minute < 60, second <= 60, (offset.map { abs($0) <= 14 * 60 } ?? true)
        else {
            self.init()
            return
        }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                  microsecond: microsecond, fractionDigits: fractionDigits, utcOffsetMinutes: offset)
    }
}

/// The decimal number in `bytes[range]`, or nil when it holds anything but digits or is too long.
func decimal(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int? {
    guard !range.isEmpty, range.count <= 18, range.upperBound <= bytes.count else { return nil }
    var value = 0
    for index in range {
        let digit = Int(bytes[index]) &- 48
        guard digit >= 0, digit <= 9 else { return nil }
        value = value * 10 + digit
    }
    return value
}

extension String {
    /// Multi-line pattern literals read better; PCRE2 gets them as one line.
    var replacingNewlines: String {
        split(separator: "\n").map { $0.trimmingLeadingSpaces }.joined()
    }
}

extension Substring {
    var trimmingLeadingSpaces: Substring { drop(while: { $0 == " " }) }
}

/// What follows a header, read byte by byte as `prefixPattern` reads it: an optional logging
/// method with its source line, `-[Class method:](123): `, then an optional marker. Each
/// part is taken whole or not at all, as the pattern's optional groups are (the pattern
/// cannot backtrack into a shorter method or marker: the characters that end them cannot
/// occur inside them). `HeaderParserTests` checks the two agree.
struct Prefix {
    var method: Range<Int>?
    var sourceLine: Range<Int>?
    var marker: Marker?
    var end: Int

    /// What the loose reading found instead, where this found no marker.
    mutating func take(_ loose: LoosePrefix) {
        method = loose.method
        sourceLine = loose.sourceLine
        marker = loose.marker
        end = loose.end
    }

    /// Nothing found: the message starts at `start`.
    init(empty start: Int) {
        method = nil
        sourceLine = nil
        marker = nil
        end = start
    }

    @inline(__always)
    init(_ bytes: UnsafeRawBufferPointer, from start: Int, oneLine: Bool = false) {
        self.init(empty: start)
        guard let bytes = LineBytes(bytes) else { return }
        if let (method, line, after) = Prefix.method(bytes, start, oneLine: oneLine) {
            self.method = method
            sourceLine = line
            end = after
        }
        if let (marker, after) = Prefix.marker(bytes, end) {
            self.marker = marker
            end = after
        }
    }

    /// `(?:__\d+)?[-+]\[[^\]\n]{1,400}\](?:_block_invoke(?:_\d+)?)?\((\d+)\):[ ]?`
    /// `oneLine`: the bytes hold no line feed, and none is looked for before the `]`: a header's
    /// line never has one (the reader splits lines at them), and the second memchr cost some 27
    /// instructions a record on the default mix (callgrind).
    static func method(_ bytes: UnsafeRawBufferPointer, _ start: Int, oneLine: Bool = false) -> (Range<Int>, Range<Int>, Int)? {
        LineBytes(bytes).flatMap { method($0, start, oneLine: oneLine) }
    }

    @inline(__always)
    private static func method(_ bytes: LineBytes, _ start: Int, oneLine: Bool) -> (Range<Int>, Range<Int>, Int)? {
        var index = start
        if has(bytes, index, "__") {
            let digits = skipDigits(bytes, index + 2)
            guard digits > index + 2 else { return nil }
            index = digits
        }
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+"),
              bytes[index + 1] == UInt8(ascii: "[") else { return nil }
        let nameStart = index + 2
        // The first `]` among the next 401 bytes, with no line end before it (memchr, not a
        // byte at a time: names run to dozens of bytes).
        let base = bytes.start
        guard nameStart < bytes.count else { return nil }
        let window = min(bytes.count, nameStart + 401) - nameStart
        guard let close = memchr(base + nameStart, Int32(UInt8(ascii: "]")), window) else { return nil }
        index = base.distance(to: UnsafeRawPointer(close))
        guard index > nameStart, oneLine || memchr(base + nameStart, 0x0A, index - nameStart) == nil else { return nil }
        index += 1
        if has(bytes, index, "_block_invoke") {
            index += 13
            if has(bytes, index, "_") {
                let digits = skipDigits(bytes, index + 1)
                if digits > index + 1 { index = digits }
            }
        }
        let methodEnd = index
        guard has(bytes, index, "(") else { return nil }
        let lineStart = index + 1
        index = skipDigits(bytes, lineStart)
        guard index > lineStart, has(bytes, index, "):") else { return nil }
        let line = lineStart..<index
        index += 2
        if has(bytes, index, " ") { index += 1 }
        return (start..<methodEnd, line, index)
    }

    /// `(?:CoreData:[ ]Ubiquity:[ \t]*)+`, `CoreData:[ ](?:(?:error|fault):[ ]?|(?=Illegal[ ]attempt[ ]))`
    /// or `UbiquityStoreManager:[ ]?` (no two start alike). `CoreData: ` is compared once for
    /// the three that start with it, where they were compared whole one after another.
    @inline(__always)
    private static func marker(_ bytes: LineBytes, _ start: Int) -> (Marker, Int)? {
        if has(bytes, start, "UbiquityStoreManager:") {
            return (.storeManager, has(bytes, start + 21, " ") ? start + 22 : start + 21)
        }
        guard has(bytes, start, "CoreData: ") else { return nil }
        let after = start + 10
        if has(bytes, after, "Ubiquity:") {
            var index = after + 9
            while true {
                while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
                guard has(bytes, index, "CoreData: Ubiquity:") else { return (.ubiquity, index) }
                index += 19
            }
        }
        if has(bytes, after, "error:") || has(bytes, after, "fault:") {
            return (.coreDataError, has(bytes, after + 6, " ") ? after + 7 : after + 6)
        }
        if has(bytes, after, "Illegal attempt ") { return (.coreDataError, after) }
        return nil
    }

    /// Whether `text` stands at `index` (see `LineBytes.has`).
    @inline(__always)
    private static func has(_ bytes: LineBytes, _ index: Int, _ text: StaticString) -> Bool { bytes.has(text, at: index) }

    private static func skipDigits(_ bytes: LineBytes, _ start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        return index
    }
}
