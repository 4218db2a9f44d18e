// Tells whether a line starts a record and, when it does, reads its header: time,
// process, pid, thread, device, level, then the logging method and the marker.
import CByteScan
import PCRE2

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
    (?:(?<method>(?:__\d+)?[-+]\[[^\]\n]{1,400}\](?:_?block_invoke(?:_\d+)?)?)\((?<line>\d+)\):[ ]?)?
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
    /// Where the C readers put what they read: kept, not made for each line (a struct of some
    /// 170 bytes, cleared for every line that may start a header). Only the reader's thread
    /// uses a parser, and no access overlaps another.
    @exclusivity(unchecked) private var read = cbytescan_header()
    /// Whether headers and what follows them are read by the byte-level readers
    /// (`cbytescan_header_read`, `cbytescan_prefix_read`) rather than by the patterns (off only
    /// in the tests that check the two agree).
    var readsByHand = true

    /// The markers the loose reading looks for: the run's families'.
    let markers: MarkerTable

    public init(styles allowedStyles: Set<HeaderStyle>? = nil, markers: MarkerTable = .standard) {
        self.allowedStyles = allowedStyles
        self.markers = markers
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
    /// body starts; otherwise leaves `head` alone. The header's texts stay where they are, as
    /// places in the line (see `RecordHead`), and nothing is made or looked up. Package-wide
    /// for the floor probe (`ParselogsDevTools`), which reads headers as the assembler does.
    ///
    /// The header, its logging method, marker and CloudKit token are read in C, in one call
    /// and one pass over the line's start, into one struct this reads its fields from: no
    /// intermediate value of optional ranges is made and copied into the head, and no call
    /// goes between small readers, on a path every line takes.
    package func parse(_ line: UnsafeRawBufferPointer, into head: inout RecordHead?) -> Int? {
        guard let base = line.baseAddress, !line.isEmpty else { return nil }
        // A first byte that no style starts with: most continuation lines stop there, without a call.
        guard HeaderParser.canStartHeader(base.load(as: UInt8.self)) else { return parseHeaderless(line, into: &head) }
        guard readsByHand ? cbytescan_header_read(base.assumingMemoryBound(to: UInt8.self), line.count, &read) != 0
                          : readByPattern(line, into: &read)
        else { return parseHeaderless(line, into: &head) }
        let style = HeaderParser.style(read.style)
        if let allowedStyles, !allowedStyles.contains(style) { return nil }
        var marker = Marker(code: read.prefix.marker)
        var end = Int(read.prefix.end)
        var method = TextPlace(read.prefix.method)
        var sourceLine = read.prefix.source_line_value >= 0 ? Int(read.prefix.source_line_value) : nil
        var thread = TextPlace(read.thread)
        if marker == nil, let loose = LooseMarkers.afterHeader(line, style: style, prefix: MessagePrefix(read.prefix), markers) {
            marker = loose.marker
            end = loose.end
            method = TextPlace(loose.method)
            sourceLine = HeaderParser.number(line, loose.sourceLine)
            if !thread.exists { thread = TextPlace(loose.thread) }
        }
        var made = RecordHead(style: style, marker: marker, clock: PackedTime(bits: read.time_bits, offset: read.time_offset),
                              pid: read.pid_value >= 0 ? Int(read.pid_value) : nil, sourceLine: sourceLine)
        made.process = TextPlace(read.process)
        made.thread = thread
        made.device = TextPlace(read.device)
        made.level = TextPlace(read.level)
        made.method = method
        head = made
        return marker != nil && method.exists ? HeaderParser.pastStrippedDescription(line, end) : end
    }

    /// Where a marked record's text starts when a copy stripped the logged object's description
    /// before it (`<…>` read as markup) and left its separator: `(1242): : Successfully …`,
    /// `(2290):  - Attempting …`. Only a separator right after the method's blank (at most one
    /// more) and before a capital letter is taken: the text of every such message starts with
    /// one, and an indented `     - Context   : …` (UbiquityStoreManager's error details) is text.
    static func pastStrippedDescription(_ line: UnsafeRawBufferPointer, _ end: Int) -> Int {
        // The method's `):`, then at most two blanks (whether the reader took them or not).
        guard end <= line.count else { return end }
        var colon = end
        while colon > 0, line[colon - 1] == 0x20, end - colon < 3 { colon -= 1 }
        guard colon > 0, line[colon - 1] == UInt8(ascii: ":") else { return end }
        var index = end
        while index < line.count, line[index] == 0x20, index - colon < 3 { index += 1 }
        guard index - colon <= 2, index + 2 < line.count, line[index] == UInt8(ascii: ":") || line[index] == UInt8(ascii: "-"),
              line[index + 1] == 0x20 else { return end }
        var text = index + 1
        while text < line.count, line[text] == 0x20 { text += 1 }
        guard text < line.count, line[text] >= UInt8(ascii: "A"), line[text] <= UInt8(ascii: "Z") else { return end }
        return text
    }

    /// A line in no header style that holds a family's marker near its start: a record pasted
    /// without its header, or behind a logger's own prefix.
    @inline(__always)
    private func parseHeaderless(_ line: UnsafeRawBufferPointer, into head: inout RecordHead?) -> Int? {
        guard allowedStyles?.contains(.bare) ?? true else { return nil }
        guard let loose = LooseMarkers.headerless(line, markers) else {
            guard let condensed = CondensedLogShow.header(line) else { return nil }
            var read = RecordHead(style: .bare, marker: nil, clock: condensed.clock, pid: nil, sourceLine: nil)
            read.process = TextPlace(condensed.process)
            head = read
            return condensed.end
        }
        var read = RecordHead(style: .bare, marker: loose.marker, clock: PackedTime(), pid: nil,
                              sourceLine: HeaderParser.number(line, loose.sourceLine))
        read.method = TextPlace(loose.method)
        // A condensed `log show` line before the marker names the process.
        if let condensed = CondensedLogShow.header(line), condensed.process.upperBound <= loose.end {
            read.process = TextPlace(condensed.process)
            read.clock = condensed.clock
        }
        head = read
        return loose.method != nil ? HeaderParser.pastStrippedDescription(line, loose.end) : loose.end
    }

    /// The styles that may start a record as `cbytescan_plain_rules` takes them, a bit each.
    /// (The C readers number the styles from `CBYTESCAN_NSLOG` to `CBYTESCAN_BARE`.)
    var allowedStyleBits: UInt32 {
        (Int32(CBYTESCAN_NSLOG)...Int32(CBYTESCAN_BARE)).reduce(0) { bits, code in
            allowedStyles?.contains(HeaderParser.style(code)) ?? true ? bits | 1 << UInt32(code) : bits
        }
    }

    /// `HeaderStyle` from the C readers' number for it.
    @inline(__always)
    static func style(_ code: Int32) -> HeaderStyle {
        switch code {
        case Int32(CBYTESCAN_NSLOG): .nslog
        case Int32(CBYTESCAN_SYSLOG): .syslog
        case Int32(CBYTESCAN_LOG_SHOW): .logShow
        case Int32(CBYTESCAN_LOG_SHOW_SYSLOG): .logShowSyslog
        case Int32(CBYTESCAN_LOGGER): .loggerTimestamp
        default: .bare
        }
    }

    /// The header as `headerPattern` reads it, in the struct the C readers fill: the
    /// definition they are held to. What follows it as `prefixPattern` reads it.
    private func readByPattern(_ line: UnsafeRawBufferPointer, into read: inout cbytescan_header) -> Bool {
        let header = patterns.header
        guard (try? header.matches(line, anchored: true)) == true,
              let mark = header.numericMark, mark < HeaderParser.styles.count,
              let whole = header.range(ofGroup: 0), let base = line.baseAddress
        else { return false }
        let style = HeaderParser.styles[mark]
        read.style = switch style {
        case .nslog: Int32(CBYTESCAN_NSLOG)
        case .syslog: Int32(CBYTESCAN_SYSLOG)
        case .logShow: Int32(CBYTESCAN_LOG_SHOW)
        case .logShowSyslog: Int32(CBYTESCAN_LOG_SHOW_SYSLOG)
        case .loggerTimestamp: Int32(CBYTESCAN_LOGGER)
        case .bare: Int32(CBYTESCAN_BARE)
        }
        read.end = Int32(whole.upperBound)
        let range = patterns.range
        readTime(line, TimePlaces(date: range(.date), time: range(.time), frac: range(.frac), tz: range(.tz),
                                  month: range(.mon), day: range(.day)), into: &read)
        read.process = cbytescan_place(range(.process))
        read.pid = cbytescan_place(range(.pid))
        read.pid_value = Int64(HeaderParser.number(line, range(.pid)) ?? -1)
        read.thread = cbytescan_place(range(.thread))
        read.device = cbytescan_place(range(.device))
        read.level = cbytescan_place(range(.level))
        cbytescan_pack_time(&read)
        cbytescan_drop_compact_type(base.assumingMemoryBound(to: UInt8.self), line.count, &read)
        read.prefix = prefixRanges(line, from: whole.upperBound, oneLine: true)
        return true
    }

    /// What follows a header (or starts a message without one): the logging method and its
    /// source line, then the marker; and where the message body starts.
    public func parsePrefix(_ bytes: UnsafeRawBufferPointer, from start: Int)
        -> (method: String?, sourceLine: Int?, marker: Marker?, bodyStart: Int) {
        var prefix = MessagePrefix(prefixRanges(bytes, from: start, oneLine: false))
        // A marker further on (`Core Data: error:`, spelt with a space), as after a header's.
        if prefix.marker == nil, let loose = LooseMarkers.afterHeader(bytes, style: .logShow, prefix: prefix, markers), loose.marker != nil {
            prefix.marker = loose.marker
            prefix.method = loose.method
            prefix.sourceLine = loose.sourceLine
            prefix.end = loose.end
        }
        return (prefix.method.map { methodTexts.text(bytes, $0) }, prefix.sourceLine.flatMap { decimal(bytes, $0) }, prefix.marker, prefix.end)
    }

    /// The prefix as `cbytescan_prefix_read` reads it, or as `prefixPattern` does (see
    /// `readsByHand`), then the CloudKit token after either. `oneLine`: `bytes` hold no line
    /// feed (a header's line, as the reader splits them), and none is looked for.
    private func prefixRanges(_ bytes: UnsafeRawBufferPointer, from start: Int, oneLine: Bool) -> cbytescan_prefix {
        var found = cbytescan_prefix(method: cbytescan_place(nil), source_line: cbytescan_place(nil), source_line_value: -1,
                                     marker: Int32(CBYTESCAN_NO_MARKER), end: Int32(truncatingIfNeeded: start))
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return found }
        if readsByHand {
            cbytescan_prefix_read(base, bytes.count, start, oneLine ? 1 : 0, &found)
            return found
        }
        let prefix = patterns.prefix
        let prefixRange = patterns.prefixRange
        guard start <= bytes.count, (try? prefix.matches(bytes, from: start, anchored: true)) == true else { return found }
        found.method = cbytescan_place(prefixRange(.method))
        found.source_line = cbytescan_place(prefixRange(.line))
        found.source_line_value = Int64(HeaderParser.number(bytes, prefixRange(.line)) ?? -1)
        if prefixRange(.ubiquity) != nil {
            found.marker = Int32(CBYTESCAN_UBIQUITY)
        } else if prefixRange(.error) != nil {
            found.marker = Int32(CBYTESCAN_CORE_DATA_ERROR)
        } else if prefixRange(.usm) != nil {
            found.marker = Int32(CBYTESCAN_STORE_MANAGER)
        }
        found.end = Int32(prefix.range(ofGroup: 0)?.upperBound ?? start)
        cbytescan_take_cloudkit_token(base, bytes.count, oneLine ? 1 : 0, &found)
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

    /// The header's time from the places the pattern found, as parts in `read`: the definition
    /// the C readers' own reading is held to.
    private func readTime(_ line: UnsafeRawBufferPointer, _ fields: TimePlaces, into read: inout cbytescan_header) {
        read.has_time = 0
        read.has_offset = 0
        read.damaged_zone = 0
        read.microsecond = 0
        read.fraction_digits = 0
        guard let time = fields.time, time.count == 8 else { return }
        // The pattern found digits at these places, at most six of a fraction and two of a day:
        // they are not checked again.
        func number(_ range: Range<Int>) -> Int32 {
            var value: Int32 = 0
            for index in range { value = value &* 10 &+ Int32(line[index] &- UInt8(ascii: "0")) }
            return value
        }
        read.has_time = 1
        read.hour = number(time.lowerBound..<time.lowerBound + 2)
        read.minute = number(time.lowerBound + 3..<time.lowerBound + 5)
        read.second = number(time.lowerBound + 6..<time.lowerBound + 8)
        read.year = -1
        read.month = 1
        read.day = 1
        if let date = fields.date, date.count == 10 {
            read.year = number(date.lowerBound..<date.lowerBound + 4)
            read.month = number(date.lowerBound + 5..<date.lowerBound + 7)
            read.day = number(date.lowerBound + 8..<date.lowerBound + 10)
        } else if let name = fields.month, let day = fields.day {
            read.month = Int32(HeaderParser.monthNumber(UnsafeRawBufferPointer(rebasing: line[name])) ?? 1)
            read.day = number(day)
        }
        if let fraction = fields.frac {
            var scaled = number(fraction)
            for _ in fraction.count..<6 { scaled *= 10 }
            read.microsecond = scaled
            read.fraction_digits = Int32(fraction.count)
        }
        if let zone = fields.tz, zone.count >= 5 {
            let minutes = number(zone.upperBound - 2..<zone.upperBound)
            // +9999 is no offset (it read as +100:39): the time is damaged.
            read.damaged_zone = minutes >= 60 ? 1 : 0
            read.has_offset = 1
            let east = number(zone.lowerBound + 1..<zone.lowerBound + 3) * 60 + minutes
            read.offset_minutes = line[zone.lowerBound] == UInt8(ascii: "-") ? -east : east
        }
    }

    /// 1 for `Jan` … 12 for `Dec` at the start of `bytes`.
    private static func monthNumber(_ bytes: UnsafeRawBufferPointer) -> Int? {
        let names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return names.firstIndex { $0.utf8.elementsEqual(bytes.prefix(3)) }.map { $0 + 1 }
    }

    /// The number a pid or source line spells, as `decimal` reads it (nil past 18 digits). Every
    /// reader (and pattern) takes these as `\d+`, so the digits are not checked again, and the
    /// loop is inlined here rather than a call to `decimal`, once for every pid and source line.
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

extension TextPlace {
    /// A place as the C readers give it (the same two offsets).
    @inline(__always)
    init(_ place: cbytescan_place) {
        self.init()
        lower = place.lower
        upper = place.upper
    }
}

extension cbytescan_place {
    /// `range` as the C readers give places (`lower` -1: none).
    init(_ range: Range<Int>?) {
        let place = TextPlace(range)
        self.init(lower: place.lower, upper: place.upper)
    }
}

/// The `log show` lines Apple's technotes print and people paste: the message type, the time
/// (with or without its date and offset), the process, the text, separated by tabs or runs of
/// blanks, with `…` (or `...`) where columns were left out:
/// `default\t14:14:16.621530-0700\tdasd\t…`, `default … 14:14:16.621530 … YourCoolApp  …`.
/// A line with a family's marker is read by the loose reading; this reads the others (a
/// daemon's decision, a framework's line) so that each starts a record of its own.
enum CondensedLogShow {
    static func header(_ line: UnsafeRawBufferPointer) -> (process: Range<Int>, end: Int, clock: PackedTime)? {
        guard let first = line.first else { return nil }
        switch first | 0x20 {
        case UInt8(ascii: "d"), UInt8(ascii: "i"), UInt8(ascii: "e"), UInt8(ascii: "f"): break
        default: return nil
        }
        var index = 0
        while index < line.count, index < 8, (line[index] | 0x20) >= UInt8(ascii: "a"), (line[index] | 0x20) <= UInt8(ascii: "z") { index += 1 }
        let word = String(decoding: UnsafeRawBufferPointer(rebasing: line[0..<index]), as: UTF8.self).lowercased()
        guard ["default", "info", "debug", "error", "fault"].contains(word), skipGap(line, &index) else { return nil }
        // [date ]time[.fraction][ offset]
        var date: (year: Int, month: Int, day: Int)?
        if digits(line, index, 4), index + 10 < line.count, line[index + 4] == UInt8(ascii: "-"), line[index + 7] == UInt8(ascii: "-"),
           digits(line, index + 5, 2), digits(line, index + 8, 2) {
            date = (number(line, index, 4), number(line, index + 5, 2), number(line, index + 8, 2))
            index += 10
            guard index < line.count, line[index] == 0x20 || line[index] == UInt8(ascii: "T") else { return nil }
            index += 1
        }
        guard digits(line, index, 2), index + 8 <= line.count, line[index + 2] == UInt8(ascii: ":"), digits(line, index + 3, 2),
              line[index + 5] == UInt8(ascii: ":"), digits(line, index + 6, 2) else { return nil }
        let (hour, minute, second) = (number(line, index, 2), number(line, index + 3, 2), number(line, index + 6, 2))
        index += 8
        var microsecond = 0
        var fractionDigits = 0
        if index < line.count, line[index] == UInt8(ascii: ".") {
            index += 1
            while index < line.count, line[index] &- UInt8(ascii: "0") < 10 {
                if fractionDigits < 6 { microsecond = microsecond * 10 + Int(line[index] &- UInt8(ascii: "0")); fractionDigits += 1 }
                index += 1
            }
        }
        for _ in fractionDigits..<6 { microsecond *= 10 }
        var offset: Int?
        var zone = index
        if zone < line.count, line[zone] == 0x20 { zone += 1 }
        if zone < line.count, line[zone] == UInt8(ascii: "+") || line[zone] == UInt8(ascii: "-"), digits(line, zone + 1, 2) {
            let east = line[zone] == UInt8(ascii: "+")
            var minutes = number(line, zone + 1, 2) * 60
            index = zone + 3
            if index < line.count, line[index] == UInt8(ascii: ":") { index += 1 }
            if digits(line, index, 2) { minutes += number(line, index, 2) }
            while index < line.count, line[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            offset = east ? minutes : -minutes
        }
        // A time that cannot be is no time (the line still starts a record).
        let valid = hour < 24 && minute < 60 && second < 61 && date.map { (1...12).contains($0.month) && (1...31).contains($0.day) } != false
        let clock = valid ? PackedTime(year: date?.year, month: date?.month ?? 1, day: date?.day ?? 1, hour: hour, minute: minute, second: second,
                                       microsecond: microsecond, fractionDigits: fractionDigits, utcOffsetMinutes: offset) : PackedTime()
        let tabbed = index < line.count && line[index] == 0x09
        guard skipGap(line, &index), index < line.count else { return nil }
        // The process: up to the next tab (tab-separated columns), else the next blank.
        let start = index
        while index < line.count, line[index] != 0x09, tabbed || line[index] != 0x20, index - start < 200 { index += 1 }
        guard index > start else { return nil }
        let process = start..<index
        // The text follows, or starts on the next line (an excerpt that wraps after the process).
        _ = skipGap(line, &index)
        return (process, index, clock)
    }

    /// Skips blanks, tabs and `…`/`...` between columns; false when there was none.
    private static func skipGap(_ line: UnsafeRawBufferPointer, _ index: inout Int) -> Bool {
        let start = index
        while index < line.count {
            if line[index] == 0x20 || line[index] == 0x09 { index += 1 }
            else if index + 2 < line.count, line[index] == 0xE2, line[index + 1] == 0x80, line[index + 2] == 0xA6 { index += 3 }
            else if index + 2 < line.count, line[index] == UInt8(ascii: "."), line[index + 1] == UInt8(ascii: "."), line[index + 2] == UInt8(ascii: ".") { index += 3 }
            else { break }
        }
        return index > start && (line[start] == 0x20 || line[start] == 0x09)
    }

    /// The decimal number of `count` digits at `at` (checked by `digits`).
    private static func number(_ line: UnsafeRawBufferPointer, _ at: Int, _ count: Int) -> Int {
        var value = 0
        for index in at..<at + count { value = value * 10 + Int(line[index] &- UInt8(ascii: "0")) }
        return value
    }

    private static func digits(_ line: UnsafeRawBufferPointer, _ at: Int, _ count: Int) -> Bool {
        guard at >= 0, at + count <= line.count else { return false }
        for index in at..<at + count where line[index] &- UInt8(ascii: "0") >= 10 { return false }
        return true
    }
}

extension RecordHead {
    /// The header of a plain line `cbytescan_plain_run` read, as `HeaderParser.parse` makes it
    /// of the same reading (no marker, no method: the run takes no line with one).
    init(plain line: UnsafePointer<cbytescan_plain_line>) {
        self.init(style: HeaderParser.style(line.pointee.style), marker: nil,
                  clock: PackedTime(bits: line.pointee.time_bits, offset: line.pointee.time_offset),
                  pid: line.pointee.pid_value >= 0 ? Int(line.pointee.pid_value) : nil,
                  sourceLine: line.pointee.source_line_value >= 0 ? Int(line.pointee.source_line_value) : nil)
        process = TextPlace(line.pointee.process)
        thread = TextPlace(line.pointee.thread)
        device = TextPlace(line.pointee.device)
        level = TextPlace(line.pointee.level)
    }
}
