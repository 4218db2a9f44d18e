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

    private let header: Matcher
    private let prefix: Matcher
    /// Group numbers, looked up once and indexed by `Group.index` (an array, not a
    /// dictionary: this runs for every line).
    private let groups: [[Int]]
    /// The last text made for each field: process, thread and device repeat on every line.
    private var recent: [(bytes: [UInt8], text: String)?] = Array(repeating: nil, count: Group.allCases.count)

    private enum Group: Int, CaseIterable {
        case date, time, frac, tz, mon, day, process, pid, thread, device, level
        case method, line, ubiquity, error, usm

        var index: Int { rawValue }
        /// The name of the pattern's group.
        var name: String { String(describing: self) }
    }

    /// Styles that may start a record; a line in another style continues the open one.
    private let allowedStyles: Set<HeaderStyle>?

    public init(styles allowedStyles: Set<HeaderStyle>? = nil) {
        self.allowedStyles = allowedStyles
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

    private func range(_ group: Group) -> Range<Int>? { header.range(ofFirstOf: groups[group.index]) }
    private func prefixRange(_ group: Group) -> Range<Int>? { prefix.range(ofFirstOf: groups[group.index]) }

    /// If `line` starts a record, its header and where the message body starts.
    public func parse(_ line: UnsafeRawBufferPointer) -> (header: Header, bodyStart: Int)? {
        // A first byte that no style starts with: most continuation lines stop here.
        guard let first = line.first, HeaderParser.canStartHeader[Int(first)] else { return nil }
        guard (try? header.matches(line, anchored: true)) == true,
              let mark = header.numericMark, mark < HeaderParser.styles.count,
              let whole = header.range(ofGroup: 0)
        else { return nil }

        let style = HeaderParser.styles[mark]
        if let allowedStyles, !allowedStyles.contains(style) { return nil }
        var result = Header(style: style)
        result.time = readTime(line)
        result.process = text(line, .process)
        result.pid = range(.pid).flatMap { decimal(line, $0) }
        result.thread = text(line, .thread)
        result.device = text(line, .device)
        result.level = text(line, .level)

        let prefix = parsePrefix(line, from: whole.upperBound)
        result.method = prefix.method
        result.sourceLine = prefix.sourceLine
        result.marker = prefix.marker
        return (result, prefix.bodyStart)
    }

    /// What follows a header (or starts a message without one): the logging method and its
    /// source line, then the marker; and where the message body starts.
    public func parsePrefix(_ bytes: UnsafeRawBufferPointer, from start: Int)
        -> (method: String?, sourceLine: Int?, marker: Marker?, bodyStart: Int) {
        guard start <= bytes.count, (try? prefix.matches(bytes, from: start, anchored: true)) == true else {
            return (nil, nil, nil, start)
        }
        let method = prefixRange(.method).map { remembered(bytes, $0, .method) }
        let sourceLine = prefixRange(.line).flatMap { decimal(bytes, $0) }
        var marker: Marker?
        if prefixRange(.ubiquity) != nil {
            marker = .ubiquity
        } else if prefixRange(.error) != nil {
            marker = .coreDataError
        } else if prefixRange(.usm) != nil {
            marker = .storeManager
        }
        return (method, sourceLine, marker, prefix.range(ofGroup: 0)?.upperBound ?? start)
    }

    /// First bytes a header can start with: digits, the capitals of month names and markers,
    /// and the characters that open a logging method.
    private static let canStartHeader: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(byte)] = true }
        for character in "JFMASONDCU-+_".utf8 { table[Int(character)] = true }
        return table
    }()

    private func readTime(_ line: UnsafeRawBufferPointer) -> LogTime? {
        guard let time = range(.time), time.count == 8 else { return nil }
        let hour = decimal(line, time.lowerBound..<time.lowerBound + 2) ?? 0
        let minute = decimal(line, time.lowerBound + 3..<time.lowerBound + 5) ?? 0
        let second = decimal(line, time.lowerBound + 6..<time.lowerBound + 8) ?? 0
        var year: Int?
        var month = 1
        var day = 1
        if let date = range(.date) {
            year = decimal(line, date.lowerBound..<date.lowerBound + 4)
            month = decimal(line, date.lowerBound + 5..<date.lowerBound + 7) ?? 1
            day = decimal(line, date.lowerBound + 8..<date.lowerBound + 10) ?? 1
        } else if let name = range(.mon), let dayRange = range(.day) {
            let monthName = String(decoding: UnsafeRawBufferPointer(rebasing: line[name]), as: UTF8.self)
            month = (HeaderParser.monthNames.firstIndex(of: monthName) ?? 0) + 1
            day = decimal(line, dayRange) ?? 1
        }
        var microsecond = 0
        var digits = 0
        if let fraction = range(.frac) {
            digits = fraction.count
            microsecond = (decimal(line, fraction) ?? 0) * HeaderParser.powersOfTen[6 - digits]
        }
        var offset: Int?
        if let zone = range(.tz) {
            let sign = line[zone.lowerBound] == UInt8(ascii: "-") ? -1 : 1
            let hours = decimal(line, zone.lowerBound + 1..<zone.lowerBound + 3) ?? 0
            let minutes = decimal(line, zone.upperBound - 2..<zone.upperBound) ?? 0
            offset = sign * (hours * 60 + minutes)
        }
        return LogTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                       microsecond: microsecond, fractionDigits: digits, utcOffsetMinutes: offset)
    }

    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let powersOfTen = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000]

    private func text(_ line: UnsafeRawBufferPointer, _ group: Group) -> String? {
        range(group).map { remembered(line, $0, group) }
    }

    /// The text of `line[range]`, reusing the String made last time when the bytes are the same.
    private func remembered(_ line: UnsafeRawBufferPointer, _ range: Range<Int>, _ group: Group) -> String {
        let bytes = UnsafeRawBufferPointer(rebasing: line[range])
        if let last = recent[group.index], last.bytes.count == bytes.count,
           bytes.isEmpty || last.bytes.withUnsafeBytes({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }) {
            return last.text
        }
        let text = ByteText.string(bytes)
        recent[group.index] = (Array(bytes), text)
        return text
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
