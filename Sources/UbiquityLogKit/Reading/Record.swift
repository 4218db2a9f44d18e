// A record: one logging call, as a header line plus the continuation lines after it.

/// The header styles a record can start with.
public enum HeaderStyle: String, Sendable, CaseIterable {
    /// Xcode console / NSLog: `2014-03-02 09:14:07.318 Journal[412:60b] `.
    case nslog
    /// Device console / syslog: `Mar  2 09:14:07 iPad Journal[412] <Warning>: `.
    case syslog
    /// macOS `log show` default style: `2016-09-30 10:01:02.123456+0200 0x2f1c  Default  0x0  412  Journal: `.
    case logShow = "logshow"
    /// macOS `log show --style syslog`: `2016-09-30 10:01:02.123456+0200  localhost Journal[412]: `.
    case logShowSyslog = "logshow-syslog"
    /// A logger's own timestamp: `2014/03/02 09:14:07:318 `.
    case loggerTimestamp = "logger"
    /// No header: the line itself starts with a logging method or a marker.
    case bare
}

/// A header with its texts as Strings: what `Record.header` and `HeaderParser.parse(_:)` give
/// (tests, and readers that want every part), and how a header made outside a parser (NDJSON
/// keys, a test) is handed to a record. A record itself keeps a `RecordHead`.
public struct Header: Sendable, Equatable {
    public var style: HeaderStyle
    public var marker: Marker?
    /// The time as packed integers (see `PackedTime`): a header is made, moved and copied for
    /// every record, so it must stay small, and a `LogTime?` held in place would more than
    /// double its size and be built in full for every record, whoever asked for it (`-q`
    /// seldom does). A time the packed form cannot hold (only ever set by hand) is kept in
    /// `texts`.
    var clock: PackedTime
    public var pid: Int?
    /// The source line printed after the method, in parentheses.
    public var sourceLine: Int?
    /// The header's texts behind one reference: with the five texts held apart each copy
    /// retained and released five strings.
    var texts: HeaderTexts?

    public var time: LogTime? {
        get { clock.isEmpty ? texts?.time : clock.time }
        set {
            if let newValue, let packed = PackedTime(newValue) {
                clock = packed
                if texts?.time != nil { texts = HeaderTexts(texts?.fields ?? .init(), time: nil) }
            } else {
                clock = PackedTime()
                if newValue != nil || texts?.time != nil { texts = HeaderTexts(texts?.fields ?? .init(), time: newValue) }
            }
        }
    }

    public var process: String? { get { texts?.fields.process } set { change { $0.process = newValue } } }
    public var thread: String? { get { texts?.fields.thread } set { change { $0.thread = newValue } } }
    public var device: String? { get { texts?.fields.device } set { change { $0.device = newValue } } }
    public var level: String? { get { texts?.fields.level } set { change { $0.level = newValue } } }
    /// The logging method before the marker, e.g. `-[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:]`.
    public var method: String? { get { texts?.fields.method } set { change { $0.method = newValue } } }

    public init(style: HeaderStyle, time: LogTime? = nil, process: String? = nil, pid: Int? = nil, thread: String? = nil,
                device: String? = nil, level: String? = nil, method: String? = nil, sourceLine: Int? = nil, marker: Marker? = nil) {
        let fields = HeaderTexts.Fields(process: process, thread: thread, device: device, level: level, method: method)
        self.init(style: style, clock: PackedTime(), pid: pid, sourceLine: sourceLine, marker: marker, texts: HeaderTexts(fields, time: nil))
        self.time = time
    }

    init(style: HeaderStyle, clock: PackedTime, pid: Int?, sourceLine: Int?, marker: Marker?, texts: HeaderTexts?) {
        self.style = style
        self.clock = clock
        self.pid = pid
        self.sourceLine = sourceLine
        self.marker = marker
        self.texts = texts
    }

    /// A header's texts are never changed in place: another header may share them.
    private mutating func change(_ edit: (inout HeaderTexts.Fields) -> Void) {
        var fields = texts?.fields ?? HeaderTexts.Fields()
        edit(&fields)
        texts = HeaderTexts(fields, time: texts?.time)
    }

    public static func == (lhs: Header, rhs: Header) -> Bool {
        lhs.style == rhs.style && lhs.time == rhs.time && lhs.pid == rhs.pid && lhs.sourceLine == rhs.sourceLine
            && lhs.marker == rhs.marker && (lhs.texts?.fields ?? .init()) == (rhs.texts?.fields ?? .init())
    }
}

/// A header's process, thread, device and level and logging method as Strings (see `Header.texts`,
/// `Record.givenTexts`).
final class HeaderTexts: Sendable {
    struct Fields: Equatable {
        var process: String?
        var thread: String?
        var device: String?
        var level: String?
        var method: String?

        subscript(field: HeaderField) -> String? {
            switch field {
            case .process: process
            case .thread: thread
            case .device: device
            case .level: level
            case .method: method
            }
        }
    }

    let fields: Fields
    /// A time set by hand that `PackedTime` cannot hold (the parser never makes one: its times
    /// are valid ones): kept here rather than in every header, which stays small.
    let time: LogTime?

    /// Nil when the header has none of the texts (nor such a time).
    init?(_ fields: Fields, time: LogTime? = nil) {
        guard fields != Fields() || time != nil else { return nil }
        self.fields = fields
        self.time = time
    }
}

extension HeaderTexts: CustomStringConvertible {
    /// The texts themselves, for a test's failure message.
    var description: String { String(describing: fields) }
}

/// A header's time as two integers: the date, clock, fraction and its digits packed in 64 bits,
/// the UTC offset in 16. Every valid time a header prints fits; `init?(_:)` refuses a
/// `LogTime` whose parts do not (years past 16382, a month of 16, …).
struct PackedTime: Sendable, Equatable {
    /// From the lowest bit: fraction digits (3 bits), microseconds (20), second (6), minute (6),
    /// hour (5), day (5), month (4), year plus one (14; 0: no year), and 1 in the top bit. 0: no time.
    private(set) var bits: UInt64 = 0
    /// Minutes east of UTC; `Int16.min`: not known.
    private(set) var offset: Int16 = .min

    /// No time.
    init() {}

    /// Parts already known to fit (a header's valid time).
    @inline(__always)
    init(year: Int?, month: Int, day: Int, hour: Int, minute: Int, second: Int, microsecond: Int, fractionDigits: Int, utcOffsetMinutes: Int?) {
        var bits = UInt64(1) << 63
        bits |= UInt64(truncatingIfNeeded: (year ?? -1) + 1) << 49
        bits |= UInt64(truncatingIfNeeded: month) << 45
        bits |= UInt64(truncatingIfNeeded: day) << 40
        bits |= UInt64(truncatingIfNeeded: hour) << 35
        bits |= UInt64(truncatingIfNeeded: minute) << 29
        bits |= UInt64(truncatingIfNeeded: second) << 23
        bits |= UInt64(truncatingIfNeeded: microsecond) << 3
        bits |= UInt64(truncatingIfNeeded: fractionDigits)
        self.bits = bits
        offset = utcOffsetMinutes.map { Int16(truncatingIfNeeded: $0) } ?? .min
    }

    /// A time the header reader packed (`cbytescan_pack_time`): the same bits, checked there.
    @inline(__always)
    init(bits: UInt64, offset: Int16) {
        self.bits = bits
        self.offset = bits == 0 ? .min : offset
    }

    /// `time` packed, or nil when a part does not fit.
    init?(_ time: LogTime) {
        guard (time.year.map { (0...16382).contains($0) } ?? true), (0...15).contains(time.month), (0...31).contains(time.day),
              (0...31).contains(time.hour), (0...63).contains(time.minute), (0...63).contains(time.second),
              (0..<(1 << 20)).contains(time.microsecond), (0...7).contains(time.fractionDigits),
              (time.utcOffsetMinutes.map { $0 > Int(Int16.min) && $0 <= Int(Int16.max) } ?? true)
        else { return nil }
        self.init(year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute, second: time.second,
                  microsecond: time.microsecond, fractionDigits: time.fractionDigits, utcOffsetMinutes: time.utcOffsetMinutes)
    }

    var isEmpty: Bool { bits == 0 }

    /// Microseconds from `earlier` to this time when both are times of the same day (bits 40 to
    /// 63, the day, month, year and the mark of a time, equal): the difference of their clocks,
    /// which is what `LogTime.microseconds(since:)` works out for them, with no `LogTime`
    /// made. nil for any other pair.
    @inline(__always)
    func microseconds(sinceSameDay earlier: PackedTime) -> Int64? {
        guard !isEmpty, !earlier.isEmpty, bits >> 40 == earlier.bits >> 40 else { return nil }
        return clockMicroseconds - earlier.clockMicroseconds
    }

    /// `LogTime.microseconds(since:)` of two times of the same month and day where one of
    /// them has no year (an input mixing header styles): the difference of their clocks, read
    /// from the bits, with no `LogTime` made. nil for any other pair.
    func microseconds(sinceSameDayOrNoYear earlier: PackedTime) -> Int64? {
        // Month and day: bits 40 to 48; the year plus one (0: none): bits 49 to 62.
        let day = (bits >> 40) & 0x1FF, earlierDay = (earlier.bits >> 40) & 0x1FF
        let year = (bits >> 49) & 0x3FFF, earlierYear = (earlier.bits >> 49) & 0x3FFF
        guard !isEmpty, !earlier.isEmpty, day == earlierDay, year == earlierYear || year == 0 || earlierYear == 0 else { return nil }
        return clockMicroseconds - earlier.clockMicroseconds
    }

    /// The clock (hour, minute, second, microsecond) in microseconds since its midnight.
    private var clockMicroseconds: Int64 {
        let hour = Int64(truncatingIfNeeded: (bits >> 35) & 0x1F), minute = Int64(truncatingIfNeeded: (bits >> 29) & 0x3F)
        let second = Int64(truncatingIfNeeded: (bits >> 23) & 0x3F), microsecond = Int64(truncatingIfNeeded: (bits >> 3) & 0xF_FFFF)
        return ((hour * 60 + minute) * 60 + second) * 1_000_000 + microsecond
    }

    var time: LogTime? {
        guard bits != 0 else { return nil }
        func part(_ shift: UInt64, _ width: UInt64) -> Int { Int(truncatingIfNeeded: (bits >> shift) & ((1 << width) - 1)) }
        let year = part(49, 14)
        return LogTime(year: year == 0 ? nil : year - 1, month: part(45, 4), day: part(40, 5), hour: part(35, 5), minute: part(29, 6),
                       second: part(23, 6), microsecond: part(3, 20), fractionDigits: part(0, 3),
                       utcOffsetMinutes: offset == .min ? nil : Int(offset))
    }
}

/// Whether a record was read whole, or shown while its writer paused (a live pipe): a record's
/// lines may go on after that, and the record it finally makes replaces the one shown.
public enum Revision: Sendable {
    /// Read at once: the usual case.
    case whole
    /// The record so far, shown because the input went quiet; it is not counted yet.
    case preview
    /// The record so far, shown again at a later pause with the lines that came since.
    case amendedPreview
    /// The record a preview showed, unchanged: counted, not shown again.
    case confirmed
    /// The record a preview showed, with lines that came after it: counted, and shown again.
    case amended

    /// Whether the record may still go on: the summary counts it when it comes again.
    public var isPreview: Bool { self == .preview || self == .amendedPreview }
    /// Whether the record replaces one shown before (with the same input and first line).
    public var amendsAnEarlierShowing: Bool { self == .amended || self == .amendedPreview }
}

/// The texts of a header: `RecordHead` keeps where each lies, `Record` reads them by name.
public enum HeaderField: Sendable, CaseIterable {
    case process, thread, device, level
    /// The logging method before the marker, e.g. `-[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:]`.
    case method
}

/// A header as a record keeps it: integers, and its texts as places in the record's text (the
/// header is the record's first line, so the places hold as long as the record does). The
/// parser makes one for every line that starts a record, without a String, a lookup or an
/// allocation: texts looked up in a table and held behind a reference cost a lookup for each
/// and a retain and release at every copy, where a value of plain integers is copied and
/// dropped for free. A reporter that prints a text makes it (`Record.string(_:)`), and the
/// summary and reporters that only ask "the same process as before?" compare bytes.
/// Package-wide for the floor probe (`ParselogsDevTools`), which reads headers as the assembler does.
package struct RecordHead: Sendable {
    var style: HeaderStyle
    package var marker: Marker?
    var clock: PackedTime
    var pid: Int?
    var sourceLine: Int?
    var process = TextPlace()
    var thread = TextPlace()
    var device = TextPlace()
    var level = TextPlace()
    package var method = TextPlace()

    init(style: HeaderStyle, marker: Marker?, clock: PackedTime, pid: Int?, sourceLine: Int?) {
        self.style = style
        self.marker = marker
        self.clock = clock
        self.pid = pid
        self.sourceLine = sourceLine
    }

    /// A header made whole (by hand, or from NDJSON keys): its texts are not in the record's
    /// text, and the record keeps them (`Record.givenTexts`).
    init(_ header: Header) {
        self.init(style: header.style, marker: header.marker, clock: header.clock, pid: header.pid, sourceLine: header.sourceLine)
    }

    subscript(field: HeaderField) -> TextPlace {
        switch field {
        case .process: process
        case .thread: thread
        case .device: device
        case .level: level
        case .method: method
        }
    }

    /// The texts where they lie in `line` (the header's line, or the record's text), as Strings.
    func texts(in line: UnsafeRawBufferPointer) -> HeaderTexts? {
        func text(_ place: TextPlace) -> String? {
            place.range.map { ByteText.string(UnsafeRawBufferPointer(rebasing: line[$0.clamped(to: 0..<line.count)])) }
        }
        return HeaderTexts(.init(process: text(process), thread: text(thread), device: text(device), level: text(level), method: text(method)))
    }

    /// The header with its texts made into Strings (`line` holds them).
    func header(in line: UnsafeRawBufferPointer, texts given: HeaderTexts? = nil) -> Header {
        Header(style: style, clock: clock, pid: pid, sourceLine: sourceLine, marker: marker, texts: given ?? texts(in: line))
    }

    /// Whether any text lies past `count` bytes: the record's text was cut shorter than its
    /// header line (a byte cap below the line's length).
    func reaches(past count: Int) -> Bool {
        HeaderField.allCases.contains { (self[$0].range?.upperBound ?? 0) > count }
    }
}

/// Where a text lies in a line: two 32-bit offsets (`lower` -1: nowhere). A line the reader
/// keeps whole is at most `LineReader.Limits.maxLineLength` bytes, far below 2 GB.
package struct TextPlace: Sendable, Equatable {
    var lower: Int32 = -1
    var upper: Int32 = 0

    init() {}

    init(_ range: Range<Int>?) {
        guard let range, range.upperBound <= Int(Int32.max) else { return }
        lower = Int32(range.lowerBound)
        upper = Int32(range.upperBound)
    }

    package var range: Range<Int>? { lower < 0 ? nil : Int(lower)..<Int(upper) }
    var exists: Bool { lower >= 0 }
}

/// A class: a record passes from the reader to the classifier, the summary and the reporters,
/// and a copy of a struct of texts costs a retain and a release of each.
///
/// Records the assembler closes do not each get an object: the run's stages hold them as
/// `RecordEntry` values in their batch, and lend each stage's one `Record` for the call,
/// loaded with the entry (`RecordLender`). So the parts other than `input`, `givenTexts` and
/// the chunk that keeps `text` alive are `var`s, changed only by `load` while nothing but the
/// lender holds the object: a record someone kept is never changed again (see `RecordLender`).
/// `input` and the chunk stay `let`s: read from a `var`, each use of a reference is retained
/// and released. The `var`s go without Swift's run-time exclusivity check: a `swift_beginAccess`
/// call on every access of every record costs more than the accesses.
public final class Record: @unchecked Sendable {
    // @unchecked: the `var`s change only while the lender holds the only reference.
    /// The name of the input (a path, or `<stdin>`).
    public let input: String
    /// Number of the record's first line in its input, from 1.
    @exclusivity(unchecked) public private(set) var firstLine: Int
    /// How many input lines the record spans (at least 1), including any dropped by the cap.
    @exclusivity(unchecked) public private(set) var lineCount: Int
    /// Keeps the bytes of `text` alive (see `RecordText`).
    let chunk: TextChunk
    @exclusivity(unchecked) private var origin: UnsafePointer<UInt8>
    @exclusivity(unchecked) private var textStart: Int
    @exclusivity(unchecked) private var textEnd: Int
    /// The header, its texts as places in `text` (see `RecordHead`); nil for text before any header.
    @exclusivity(unchecked) private(set) var head: RecordHead?
    /// The texts of a header handed in whole (`init(header:)`: NDJSON records, tests, a header
    /// line cut short by the byte cap), which `text` does not hold; nil for a header read from `text`.
    let givenTexts: HeaderTexts?
    /// Offset in `text` where the message starts (after the header, method and marker).
    @exclusivity(unchecked) public private(set) var bodyStart: Int
    /// Some of the record was not kept: too many lines or bytes, or an overlong line.
    @exclusivity(unchecked) public private(set) var isTruncated: Bool
    /// Whether a preview of this record was shown before (see `Revision`).
    @exclusivity(unchecked) public private(set) var revision: Revision

    /// The record's lines joined by LF, line ends removed; bytes as read, where they were read
    /// into (see `RecordText` for how long they live).
    public var text: RecordText { RecordText(chunk: chunk, origin: origin, bounds: textStart..<textEnd) }

    init(input: String, firstLine: Int, lineCount: Int, text: RecordText, head: RecordHead?, givenTexts: HeaderTexts?, bodyStart: Int,
         isTruncated: Bool, revision: Revision) {
        self.input = input
        self.firstLine = firstLine
        self.lineCount = lineCount
        chunk = text.chunk
        origin = text.origin
        textStart = text.startIndex
        textEnd = text.endIndex
        self.head = head
        self.givenTexts = givenTexts
        self.bodyStart = bodyStart
        self.isTruncated = isTruncated
        self.revision = revision
    }

    /// The record `entry` holds, in an object of its own.
    init(input: String, _ entry: UnsafePointer<RecordEntry>) {
        self.input = input
        firstLine = entry.pointee.firstLine
        lineCount = entry.pointee.lineCount
        chunk = entry.pointee.chunk
        origin = entry.pointee.origin
        textStart = 0
        textEnd = entry.pointee.count
        head = entry.pointee.head
        givenTexts = nil
        bodyStart = entry.pointee.bodyStart
        isTruncated = entry.pointee.isTruncated
        revision = entry.pointee.revision
    }

    /// Becomes the record `entry` holds, whose bytes lie in this record's chunk (`RecordLender`
    /// alone calls it, while it holds the only reference). Read through a pointer: an entry
    /// passed as a value is copied whole at each call on its way here.
    fileprivate func load(_ entry: UnsafePointer<RecordEntry>) {
        firstLine = entry.pointee.firstLine
        lineCount = entry.pointee.lineCount
        origin = entry.pointee.origin
        textStart = 0
        textEnd = entry.pointee.count
        head = entry.pointee.head
        bodyStart = entry.pointee.bodyStart
        isTruncated = entry.pointee.isTruncated
        revision = entry.pointee.revision
    }

    public convenience init(input: String, firstLine: Int, lineCount: Int, text: RecordText, header: Header?, bodyStart: Int, isTruncated: Bool = false,
                            revision: Revision = .whole) {
        self.init(input: input, firstLine: firstLine, lineCount: lineCount, text: text, head: header.map(RecordHead.init),
                  givenTexts: header?.texts, bodyStart: bodyStart, isTruncated: isTruncated, revision: revision)
    }

    /// A record whose text is a copy of `text` (records made outside an assembler).
    public convenience init(input: String, firstLine: Int, lineCount: Int, text: [UInt8], header: Header?, bodyStart: Int,
                            isTruncated: Bool = false, revision: Revision = .whole) {
        self.init(input: input, firstLine: firstLine, lineCount: lineCount, text: RecordText(text), header: header,
                  bodyStart: bodyStart, isTruncated: isTruncated, revision: revision)
    }

    /// The header with its texts as Strings, made on each call: for tests and for readers that
    /// want every part. The run's own stages read the parts they need (`time`, `pid`,
    /// `withBytes(of:)`, `string(_:)`), which make no String unless asked for one.
    public var header: Header? {
        guard let head else { return nil }
        return text.withUnsafeBytes { head.header(in: $0, texts: givenTexts) }
    }

    public var marker: Marker? { head?.marker }
    public var time: LogTime? {
        guard let head else { return nil }
        return head.clock.isEmpty ? givenTexts?.time : head.clock.time
    }
    public var pid: Int? { head?.pid }
    public var sourceLine: Int? { head?.sourceLine }

    /// The header's `field`, as a String made now (nil when the header has none).
    public func string(_ field: HeaderField) -> String? {
        guard let head else { return nil }
        if let range = head[field].range { return text.withUnsafeBytes { ByteText.string(UnsafeRawBufferPointer(rebasing: $0[range])) } }
        return givenTexts.flatMap { $0.fields[field] }
    }

    /// Whether the header has `field`.
    public func has(_ field: HeaderField) -> Bool {
        guard let head else { return false }
        return head[field].exists || givenTexts?.fields[field] != nil
    }

    /// The bytes of the header's `field` (nil when it has none), for `body`'s call only: where
    /// they lie in the record's text, or a given text's UTF-8.
    public func withBytes<Result>(of field: HeaderField, _ body: (UnsafeRawBufferPointer?) throws -> Result) rethrows -> Result {
        if let range = head?[field].range {
            return try text.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[range])) }
        }
        guard var given = givenTexts?.fields[field] else { return try body(nil) }
        return try given.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
    }

    /// Whether the header's `field` holds the bytes `kept` holds (nil when the header has no
    /// such text): compared where they lie, without a String.
    func has(_ field: HeaderField, sameAs kept: KeptText) -> Bool? {
        // The place alone is read out of the record (binding `head` would copy all of it).
        guard let place = head?[field] else { return nil }
        if let range = place.range { return text.withUnsafeBytes { kept.matches(UnsafeRawBufferPointer(rebasing: $0[range])) } }
        guard var given = givenTexts?.fields[field] else { return nil }
        return given.withUTF8 { kept.matches(UnsafeRawBufferPointer($0)) }
    }

    /// The header's `field` as a `KeptText` (empty when it has none).
    func kept(_ field: HeaderField) -> KeptText { withBytes(of: field) { $0.map(KeptText.init) ?? KeptText() } }

    /// The message: everything after the header, method and marker.
    public var body: RecordText { text[min(bodyStart, text.count)...] }

    /// The first line of the message, for one-line displays.
    public var firstBodyLine: RecordText {
        let body = self.body
        if let newline = body.firstIndex(of: 0x0A) { return body[..<newline] }
        return body
    }

    /// Whether the message goes on past its first line.
    public var hasMoreLines: Bool { body.contains(0x0A) }
}

/// A record the assembler closed, as plain values: what a batch of the run's stages holds for
/// it in place of a `Record` object (see `RunStages`). Its bytes lie in `chunk`, which the
/// entry does not keep alive: whoever holds the entry keeps the chunk (the assembler until it
/// hands the entry on, then the batch).
///
/// Not an object a record: one allocated by the assembler and freed after the summary, with its
/// input's name and its chunk retained and released, costs far more than the entry and the
/// lent object.
struct RecordEntry {
    unowned(unsafe) var chunk: TextChunk
    /// The first byte of the record's text, in `chunk`.
    var origin: UnsafePointer<UInt8>
    var count = 0
    var firstLine = 0
    var lineCount = 0
    var head: RecordHead?
    var bodyStart = 0
    var isTruncated = false
    var revision = Revision.whole
    /// The record has no marker, and its message holds none of the texts the rules for
    /// messages without a marker need (`OwnLineRecognizer.mayRecognise`): the classifier makes
    /// it the app's line without lending it (see `RunStages`). False when not known.
    var isPlain = false
    /// In a batch, for a record that came as an object: its place in the batch's objects
    /// (see `RunStages.Batch`); -1 for an entry of its own.
    var object = -1

    /// An empty record at the start of `chunk`.
    init(chunk: TextChunk) {
        self.chunk = chunk
        origin = UnsafePointer(chunk.base)
    }

    /// The bytes of the header's process where the record's text holds them (`Record.withBytes`
    /// of an entry's record); nil when it names none.
    @inline(__always)
    var processBytes: UnsafeRawBufferPointer? {
        guard let range = head?.process.range else { return nil }
        return UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(start: origin, count: count)[range])
    }
}

/// Lends a stage's records one `Record` object, loaded with each entry in turn, for one call
/// at a time: a record the stage's call kept (a reporter keeping the last record, a test
/// keeping every one) holds a reference, so the lender makes a new object for the next entry
/// and never changes the kept one. A new object is made too when an entry's bytes lie in
/// another chunk (the object's `chunk` is a `let`: see `Record`), about once a megabyte.
struct RecordLender {
    let input: String
    /// The object lent last: `owned` keeps it, `lent` hands it to a call without a retain.
    private var owned: Record?
    private var lent: Unmanaged<Record>?

    init(input: String) { self.input = input }

    /// Calls `body` with the record `entry` holds, for the call only: a record `body` keeps
    /// is its own. Lent as a guaranteed reference (`_withUnsafeGuaranteedRef`), not returned:
    /// returned, it would be retained and released once a record at each stage.
    @inline(__always)
    mutating func withRecord<Result>(_ entry: UnsafePointer<RecordEntry>, _ body: (Record) -> Result) -> Result {
        let record: Unmanaged<Record>
        if isKnownUniquelyReferenced(&owned), let lent, lent._withUnsafeGuaranteedRef({ $0.chunk === entry.pointee.chunk }) {
            lent._withUnsafeGuaranteedRef { $0.load(entry) }
            record = lent
        } else {
            let made = Record(input: input, entry)
            owned = made
            record = Unmanaged.passUnretained(made)
            lent = record
        }
        return record._withUnsafeGuaranteedRef(body)
    }
}
