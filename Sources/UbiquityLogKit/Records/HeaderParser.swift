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
    /// Process, thread and device repeat on every line, a log's methods are a few dozen: their
    /// texts are made once and reused, alone (`parsePrefix`) and as a header's five together.
    private let texts = RecurringTexts()

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

    /// If `line` starts a record, its header and where the message body starts.
    public func parse(_ line: UnsafeRawBufferPointer) -> (header: Header, bodyStart: Int)? {
        var header: Header?
        guard let bodyStart = parse(line, into: &header), let header else { return nil }
        return (header, bodyStart)
    }

    /// If `line` starts a record, puts its header in `header` and returns where the message
    /// body starts; otherwise leaves `header` alone. The assembler's way: a header holds up to
    /// six texts, and each copy of one retained and released them all. Package-wide for the
    /// floor probe (`ParselogsDevTools`), which reads headers as the assembler does.
    package func parse(_ line: UnsafeRawBufferPointer, into header: inout Header?) -> Int? {
        guard let first = line.first else { return nil }
        var fields = HeaderFields(.bare)
        // A first byte that no style starts with: most continuation lines stop there.
        guard HeaderParser.canStartHeader(first),
              readsByHand ? HeaderFields.read(line, into: &fields) : fieldsByPattern(line, into: &fields)
        else { return parseHeaderless(line, into: &header) }
        if let allowedStyles, !allowedStyles.contains(fields.style) { return nil }
        if fields.style == .nslog { HeaderParser.dropCompactType(line, &fields) }
        var prefix = prefixRanges(line, from: fields.end)
        if prefix.marker == nil, let loose = LooseMarkers.afterHeader(line, style: fields.style, prefix: prefix) {
            prefix.take(loose)
            if fields.thread == nil { fields.thread = loose.thread }
        }
        header = Header(style: fields.style, clock: readTime(line, fields), pid: HeaderParser.number(line, fields.pid),
                        sourceLine: HeaderParser.number(line, prefix.sourceLine), marker: prefix.marker,
                        texts: texts(line, fields, method: prefix.method))
        return prefix.end
    }

    /// A line in no header style that holds a family's marker near its start: a record pasted
    /// without its header, or behind a logger's own prefix.
    private func parseHeaderless(_ line: UnsafeRawBufferPointer, into header: inout Header?) -> Int? {
        guard allowedStyles?.contains(.bare) ?? true, let loose = LooseMarkers.headerless(line) else { return nil }
        let fields = HeaderFields(.bare)
        header = Header(style: .bare, clock: PackedTime(), pid: nil, sourceLine: HeaderParser.number(line, loose.sourceLine),
                        marker: loose.marker, texts: texts(line, fields, method: loose.method))
        return loose.end
    }

    /// `log stream --style compact` prints the entry's type between the time and the process
    /// (`2025-06-03 10:15:42.118 Df Recipes[2210:8e41f] `), which the NSLog reading takes as the
    /// process's first word: the type is the header's level, the rest its process.
    static func dropCompactType(_ line: UnsafeRawBufferPointer, _ fields: inout HeaderFields) {
        guard let process = fields.process, process.count > 3 else { return }
        let start = process.lowerBound
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
        fields.date = range(.date)
        fields.time = range(.time)
        fields.frac = range(.frac)
        fields.tz = range(.tz)
        fields.month = range(.mon)
        fields.day = range(.day)
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
        let prefix = prefixRanges(bytes, from: start)
        return (prefix.method.map { texts.text(bytes, $0) }, prefix.sourceLine.flatMap { decimal(bytes, $0) }, prefix.marker, prefix.end)
    }

    /// The prefix as `Prefix` reads it, or as `prefixPattern` does (see `readsByHand`).
    private func prefixRanges(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Prefix {
        var found = ownPrefixRanges(bytes, from: start)
        found.takeCloudKitToken(bytes)
        return found
    }

    private func ownPrefixRanges(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Prefix {
        if readsByHand, start <= bytes.count { return Prefix(bytes, from: start) }
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

    /// The header's texts: the ones made before for the same five byte strings (a log repeats a
    /// few processes, threads and methods). Found in two steps rather than by one key of all
    /// five: the process, thread, device and level (a few bytes, the same line after line) are
    /// compared with the last header's and numbered (`quadNumber`), and the logging method is
    /// looked up where it lies in the line, with that number (`MethodTexts`). The key of all five
    /// copied the method's dozens of bytes into it and hashed them for every record: some 410
    /// instructions a record on the default mix, some 365 now (callgrind; the run 88 fewer a
    /// record in all, with `quadNumber`'s last quad of each style).
    private func texts(_ line: UnsafeRawBufferPointer, _ fields: HeaderFields, method: Range<Int>?) -> HeaderTexts? {
        var length = 0
        guard let base = line.baseAddress,
              HeaderParser.put(fields.process, of: base, into: textsKey, at: &length),
              HeaderParser.put(fields.thread, of: base, into: textsKey, at: &length),
              HeaderParser.put(fields.device, of: base, into: textsKey, at: &length),
              HeaderParser.put(fields.level, of: base, into: textsKey, at: &length)
        else { return HeaderParser.makeTexts(line, fields, method: method) }
        let quad = quadNumber(UnsafeRawBufferPointer(start: textsKey, count: length), style: fields.style)
        let methodBytes = method.map { UnsafeRawBufferPointer(rebasing: line[$0]) }
        return methodTexts.value(quad: quad, method: methodBytes) { HeaderParser.makeTexts(line, fields, method: method) }
    }

    /// The number of a process, thread, device and level as a key (see `put`): the last one's in
    /// the same style when they are the same (nearly always), else the one they got when first
    /// seen. The last of each style, not the last of all: a log that mixes styles (the default
    /// mix interleaves NSLog, `log show` and syslog headers) changed the last one at every
    /// other record.
    private func quadNumber(_ key: UnsafeRawBufferPointer, style: HeaderStyle) -> Int {
        let last = HeaderParser.ordinal(style)
        let lastKey = lastQuadKeys + last * HeaderParser.textsKeyCapacity
        if key.count == lastQuads[last].length, let base = key.baseAddress, memcmp(lastKey, base, key.count) == 0 {
            return lastQuads[last].number
        }
        let number = quadNumbers.value(key) {
            quadCount += 1
            return quadCount
        }
        if let base = key.baseAddress { lastKey.copyMemory(from: base, byteCount: key.count) }
        lastQuads[last] = (key.count, number)
        return number
    }

    /// A style's place among `lastQuads`.
    private static func ordinal(_ style: HeaderStyle) -> Int {
        switch style {
        case .nslog: 0
        case .syslog: 1
        case .logShow: 2
        case .logShowSyslog: 3
        case .loggerTimestamp: 4
        case .bare: 5
        }
    }

    /// Room for the key of `texts`: each part as its length plus one (0: absent) in two bytes,
    /// then its bytes.
    private static let textsKeyCapacity = 512
    private let textsKey = UnsafeMutableRawPointer.allocate(byteCount: HeaderParser.textsKeyCapacity, alignment: 8)
    /// The last header's process, thread, device and level in each style, as a key, and their
    /// number (see `quadNumber`).
    private let lastQuadKeys = UnsafeMutableRawPointer.allocate(byteCount: 6 * HeaderParser.textsKeyCapacity, alignment: 8)
    @exclusivity(unchecked) private var lastQuads = [(length: Int, number: Int)](repeating: (-1, 0), count: 6)
    private let quadNumbers = Recurring<Int>(longest: HeaderParser.textsKeyCapacity)
    /// Numbers given so far (a quad that no longer fits `quadNumbers` gets a new one: its texts
    /// are made again, never confused with another's).
    @exclusivity(unchecked) private var quadCount = 0
    private let methodTexts = MethodTexts()

    deinit {
        textsKey.deallocate()
        lastQuadKeys.deallocate()
    }

    /// Appends one part to a key of `texts`; false when the key would not fit.
    @inline(__always)
    private static func put(_ range: Range<Int>?, of line: UnsafeRawPointer, into key: UnsafeMutableRawPointer, at length: inout Int) -> Bool {
        guard let range else {
            guard length + 2 <= textsKeyCapacity else { return false }
            key.storeBytes(of: 0, toByteOffset: length, as: UInt16.self)
            length += 2
            return true
        }
        guard length + 2 + range.count <= textsKeyCapacity else { return false }
        key.storeBytes(of: UInt16(truncatingIfNeeded: range.count + 1), toByteOffset: length, as: UInt16.self)
        copyKeyBytes(from: line + range.lowerBound, to: key + length + 2, count: range.count)
        length += 2 + range.count
        return true
    }

    /// `count` bytes copied by eight-byte words, the last word overlapping the one before, or
    /// shorter where fewer: the parts of a key are a few to a few dozen bytes, four or five a
    /// record, and a call to memcpy for each cost more than the copy. Reads no byte outside
    /// `from..<from + count`.
    @inline(__always)
    private static func copyKeyBytes(from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, count: Int) {
        if count >= 8 {
            var offset = 0
            while offset < count - 8 {
                target.storeBytes(of: source.loadUnaligned(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            target.storeBytes(of: source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self), toByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4 {
            target.storeBytes(of: source.loadUnaligned(as: UInt32.self), as: UInt32.self)
            target.storeBytes(of: source.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self), toByteOffset: count - 4, as: UInt32.self)
        } else if count > 0 {
            target.storeBytes(of: source.load(as: UInt8.self), as: UInt8.self)
            target.storeBytes(of: source.load(fromByteOffset: count / 2, as: UInt8.self), toByteOffset: count / 2, as: UInt8.self)
            target.storeBytes(of: source.load(fromByteOffset: count - 1, as: UInt8.self), toByteOffset: count - 1, as: UInt8.self)
        }
    }

    private static func makeTexts(_ line: UnsafeRawBufferPointer, _ fields: HeaderFields, method: Range<Int>?) -> HeaderTexts? {
        func text(_ range: Range<Int>?) -> String? { range.map { ByteText.string(UnsafeRawBufferPointer(rebasing: line[$0])) } }
        return HeaderTexts(.init(process: text(fields.process), thread: text(fields.thread), device: text(fields.device),
                                 level: text(fields.level), method: text(method)))
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

    /// The header's time, packed (see `PackedTime`): read from the digits, checked on the
    /// integers, and never built into a `LogTime` here (only a caller that asks for the time does
    /// that; see `Header.clock` for what that saved).
    private func readTime(_ line: UnsafeRawBufferPointer, _ fields: HeaderFields) -> PackedTime {
        guard let time = fields.time, time.count == 8, let bytes = LineBytes(line) else { return PackedTime() }
        // The readers (or the pattern) found digits at these places, at most six of a fraction
        // and two of a day: they are not checked again (this runs for every record).
        @inline(__always)
        func number(_ start: Int, _ count: Int) -> Int {
            var value = 0
            for index in start..<start + count { value = value &* 10 &+ Int(bytes[index] &- UInt8(ascii: "0")) }
            return value
        }
        @inline(__always)
        func twoDigits(_ start: Int) -> Int { Int(bytes[start] &- UInt8(ascii: "0")) &* 10 &+ Int(bytes[start + 1] &- UInt8(ascii: "0")) }
        let hour = twoDigits(time.lowerBound)
        let minute = twoDigits(time.lowerBound + 3)
        let second = twoDigits(time.lowerBound + 6)
        var year: Int?
        var month = 1
        var day = 1
        if let date = fields.date, date.count == 10 {
            year = number(date.lowerBound, 4)
            month = twoDigits(date.lowerBound + 5)
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
        // A header whose time cannot exist (2014-13-45 99:99:99) still starts a record, without a
        // time: passing it on would order, window and time events by nonsense. The checks of
        // `LogTime.isValid`, on the integers (a fraction of at most six digits is below a million).
        guard (1...12).contains(month), day >= 1, day <= LogTime.daysIn(month: month, year: year),
              hour < 24, minute < 60, second <= 60, (offset.map { abs($0) <= 14 * 60 } ?? true)
        else { return PackedTime() }
        return PackedTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
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

    init(_ bytes: UnsafeRawBufferPointer, from start: Int) {
        self.init(empty: start)
        guard let bytes = LineBytes(bytes) else { return }
        if let (method, line, after) = Prefix.method(bytes, start) {
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
    static func method(_ bytes: UnsafeRawBufferPointer, _ start: Int) -> (Range<Int>, Range<Int>, Int)? {
        LineBytes(bytes).flatMap { method($0, start) }
    }

    private static func method(_ bytes: LineBytes, _ start: Int) -> (Range<Int>, Range<Int>, Int)? {
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
        guard index > nameStart, memchr(base + nameStart, 0x0A, index - nameStart) == nil else { return nil }
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
    /// or `UbiquityStoreManager:[ ]?`, tried in that order.
    private static func marker(_ bytes: LineBytes, _ start: Int) -> (Marker, Int)? {
        var index = start
        while has(bytes, index, "CoreData: Ubiquity:") {
            index += 19
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        }
        if index > start { return (.ubiquity, index) }
        if has(bytes, index, "CoreData: ") {
            let after = index + 10
            if has(bytes, after, "error:") || has(bytes, after, "fault:") {
                return (.coreDataError, has(bytes, after + 6, " ") ? after + 7 : after + 6)
            }
            if has(bytes, after, "Illegal attempt ") { return (.coreDataError, after) }
        }
        if has(bytes, index, "UbiquityStoreManager:") {
            return (.storeManager, has(bytes, index + 21, " ") ? index + 22 : index + 21)
        }
        return nil
    }

    /// Whether `text` stands at `index`. The first byte is compared in place, and the rest only
    /// when it matches: most calls fail on it, and a call to memcmp costs some twenty
    /// instructions.
    @inline(__always)
    private static func has(_ bytes: LineBytes, _ index: Int, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index >= 0, index + count <= bytes.count, bytes[index] == text.utf8Start[0] else { return false }
        guard count > 1 else { return true }
        return count == 2 ? bytes[index + 1] == text.utf8Start[1] : memcmp(bytes.start + index + 1, text.utf8Start + 1, count - 1) == 0
    }

    private static func skipDigits(_ bytes: LineBytes, _ start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        return index
    }
}

/// A header's texts by the number of its process, thread, device and level (`HeaderParser.quadNumber`)
/// and its logging method, the method's bytes read where they lie: a lookup copies nothing,
/// and retains nothing but the texts it returns. Like `Recurring`, a key goes to one of two
/// slots found by a hash (of the number and the method's length, ends and middle) and is
/// checked in full.
final class MethodTexts {
    private static let slotCount = 1024
    /// Longer methods get their texts made each time: the block stays small whatever a line holds.
    static let longest = 256
    private let keys = UnsafeMutableRawPointer.allocate(byteCount: MethodTexts.slotCount * MethodTexts.longest, alignment: 8)
    /// A slot's method length, `noMethod` for a header without one, `empty` while the slot is unused.
    private let lengths = UnsafeMutablePointer<Int>.allocate(capacity: MethodTexts.slotCount)
    private let quads = UnsafeMutablePointer<Int>.allocate(capacity: MethodTexts.slotCount)
    private let values = UnsafeMutablePointer<HeaderTexts?>.allocate(capacity: MethodTexts.slotCount)
    private var evictSecond = false
    private static let empty = -1
    private static let noMethod = -2

    init() {
        lengths.initialize(repeating: MethodTexts.empty, count: MethodTexts.slotCount)
        quads.initialize(repeating: 0, count: MethodTexts.slotCount)
        values.initialize(repeating: nil, count: MethodTexts.slotCount)
    }

    deinit {
        values.deinitialize(count: MethodTexts.slotCount)
        values.deallocate()
        quads.deallocate()
        lengths.deallocate()
        keys.deallocate()
    }

    /// The texts for quad number `quad` and `method` (nil: none): the ones made before for the
    /// same, or `make()`.
    func value(quad: Int, method: UnsafeRawBufferPointer?, make: () -> HeaderTexts?) -> HeaderTexts? {
        let length = method?.count ?? MethodTexts.noMethod
        guard length <= MethodTexts.longest else { return make() }
        let base = method?.baseAddress
        let first = MethodTexts.slot(quad: quad, method: method)
        @inline(__always)
        func holds(_ slot: Int) -> Bool {
            guard lengths[slot] == length, quads[slot] == quad else { return false }
            guard length > 0, let base else { return true }
            return memcmp(keys + slot * MethodTexts.longest, base, length) == 0
        }
        if holds(first) { return values[first] }
        if holds(first ^ 1) { return values[first ^ 1] }
        let slot = lengths[first] == MethodTexts.empty || !evictSecond ? first : first ^ 1
        evictSecond.toggle()
        let value = make()
        if length > 0, let base { (keys + slot * MethodTexts.longest).copyMemory(from: base, byteCount: length) }
        lengths[slot] = length
        quads[slot] = quad
        values[slot] = value
        return value
    }

    private static func slot(quad: Int, method: UnsafeRawBufferPointer?) -> Int {
        var hash = UInt64(truncatingIfNeeded: quad) &* 0x9E37_79B9_7F4A_7C15
        if let method { hash = SlotHash.mix(method, into: hash ^ (UInt64(method.count) &* 0xD6E8_FEB8_6659_FD93)) }
        return SlotHash.slot(hash, count: slotCount)
    }
}
