// A family's marker found wherever a line puts it. The header readers and `MessagePrefix` take the
// shapes Apple's and UbiquityStoreManager's own logging print; real logs also carry the marker
// after blanks, a tab, a logger's tag or thread id, a method pasted without its `-`, or with
// no header at all. A line that holds a marker near its start is a record of that family,
// whatever came before it: header variation must never turn a Core Data record into an app line.
import CByteScan
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How one marker is spelled: its text up to and including its last colon (or the words of the
/// message it marks, for a marker known by them).
public struct MarkerSpelling: Sendable {
    public let marker: Marker
    /// A literal: its bytes are read in place, with no reference counted for each line searched.
    let text: StaticString
    /// How much of `text` is the marker: the message starts there (all of it, unless the
    /// spelling includes the message's first words).
    let length: Int
    /// Where the text's first colon is: the search stops at colons and looks back this far.
    let firstColon: Int
    /// Whether the marker may be printed again right after itself (`CoreData: Ubiquity:` is, by
    /// messages that format one ubiquity message into another).
    let repeats: Bool

    public init(_ marker: Marker, _ text: StaticString, repeats: Bool = false, messageAfter prefix: StaticString? = nil) {
        self.marker = marker
        self.text = text
        length = prefix.map { $0.utf8CodeUnitCount } ?? text.utf8CodeUnitCount
        let bytes = UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        firstColon = bytes.firstIndex(of: UInt8(ascii: ":")) ?? max(0, bytes.count - 1)
        self.repeats = repeats
    }

    /// The spelling's bytes.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount) }
}

/// A logging method whose records are a marker's messages printed without their marker: an
/// app's delegate method through which a library hands its messages to the app's own logger.
public struct MarkerMethod: Sendable {
    public let marker: Marker
    /// The method's last words, up to and including its `]`: `ubiquityStoreManager:log:]`.
    let suffix: [UInt8]

    public init(_ marker: Marker, endingWith suffix: String) {
        self.marker = marker
        self.suffix = Array(suffix.utf8)
    }
}

/// The markers of a run's families, as the loose reading looks for them.
public struct MarkerTable: Sendable {
    public let spellings: [MarkerSpelling]
    public let methods: [MarkerMethod]

    public init(families: [Family]) {
        spellings = families.flatMap(\.markers)
        methods = families.flatMap(\.markerMethods)
    }

    /// The catalogue's families' markers.
    public static let standard = MarkerTable(families: Catalog.families)
}

/// What the loose reading found after a header (or in a line without one).
struct LoosePrefix {
    var method: Range<Int>?
    var sourceLine: Range<Int>?
    var thread: Range<Int>?
    var marker: Marker?
    /// Where the message starts.
    var end: Int
}

enum LooseMarkers {
    /// How far into a line a marker is looked for: past a header, a logger's tags and the
    /// longest logging methods (block names run to some 120 bytes), not into long messages.
    static let window = 400

    /// A line without a header that holds a marker near its start: what comes before the marker
    /// (a logger's tag, a method pasted without its `-`, blanks) is not the message.
    @inline(__always)
    static func headerless(_ line: UnsafeRawBufferPointer, _ markers: MarkerTable) -> LoosePrefix? {
        guard let found = firstMarker(in: line, from: 0, markers) else { return nil }
        return around(found, in: line, from: 0, method: nil)
    }

    /// After a header whose message did not start with a marker (`prefix` is what `MessagePrefix`
    /// read there): a marker further on, or a logger's thread id and method, or the store
    /// manager's delegate method. Nil when none is there: the header's reading stands.
    static func afterHeader(_ line: UnsafeRawBufferPointer, style: HeaderStyle, prefix: MessagePrefix, _ markers: MarkerTable) -> LoosePrefix? {
        if let found = firstMarker(in: line, from: prefix.end, markers) {
            var loose = around(found, in: line, from: prefix.end, method: prefix.method)
            if prefix.method != nil { loose.sourceLine = prefix.sourceLine }
            return loose
        }
        if let method = prefix.method {
            guard let marker = marker(namedBy: method, in: line, markers) else { return nil }
            return LoosePrefix(method: method, sourceLine: prefix.sourceLine, marker: marker, end: prefix.end)
        }
        // A logger's own line: its thread id, then the method it names (`[Class method]:line`).
        var at = skipBlanks(line, prefix.end)
        var loose = LoosePrefix(end: at)
        if style == .loggerTimestamp, let thread = threadToken(line, at) {
            loose.thread = thread.token
            loose.end = thread.end
            at = thread.end
        }
        if mayStartMethod(line, at), let method = methodAt(line, at) {
            loose.method = method.method
            loose.sourceLine = method.sourceLine
            loose.end = method.end
            loose.marker = marker(namedBy: method.method, in: line, markers)
        }
        return loose.end == prefix.end ? nil : loose
    }

    /// The prefix around a marker found at `found`: the method right before it (unless one was
    /// read already), the marker, and a method right after it (families that print theirs there).
    private static func around(_ found: (spelling: MarkerSpelling, start: Int), in line: UnsafeRawBufferPointer, from: Int,
                               method known: Range<Int>?) -> LoosePrefix {
        var loose = LoosePrefix(marker: found.spelling.marker, end: markerEnd(found.spelling, line, found.start))
        if let known {
            loose.method = known
        } else if let before = methodBefore(line, found.start, notBefore: from) {
            loose.method = before.method
            loose.sourceLine = before.sourceLine
        } else if let after = methodAt(line, loose.end) {
            loose.method = after.method
            loose.sourceLine = after.sourceLine
            loose.end = after.end
        }
        return loose
    }

    /// The earliest marker that starts at or after `from` and ends within the window.
    ///
    /// Each colon may end a marker's first word, and two bytes before it tell at once whether
    /// any marker's first word can end there (`quickPair`): the colons that pass are found
    /// sixteen bytes at a time in C (`cbytescan_marker_colon`), and only at such a colon, on
    /// few lines, are the spellings compared. This runs on every line that starts no header
    /// (three in four on ~420-byte records), so the scan is inlined into the header reader and
    /// this is called only at a colon that passes.
    @inline(__always)
    static func firstMarker(in line: UnsafeRawBufferPointer, from: Int, _ markers: MarkerTable) -> (spelling: MarkerSpelling, start: Int)? {
        guard let base = line.baseAddress, from < line.count else { return nil }
        let limit = min(line.count, from + window)
        // A colon fewer than `quickLookBack` bytes past `from` ends no marker that starts at or
        // after it.
        let colon = markerColon(base, from: from + quickLookBack, to: limit)
        guard colon < limit else { return nil }
        return firstMarker(in: line, from: from, colon: colon, limit: limit, markers.spellings)
    }

    /// `firstMarker` from a colon that passed `quickPair` on.
    @inline(never)
    private static func firstMarker(in line: UnsafeRawBufferPointer, from: Int, colon first: Int, limit: Int, _ spellings: [MarkerSpelling])
        -> (spelling: MarkerSpelling, start: Int)? {
        guard let base = line.baseAddress else { return nil }
        var colon = first
        while colon < limit {
            for spelling in spellings {
                let start = colon - spelling.firstColon
                let count = spelling.text.utf8CodeUnitCount
                // The first byte before memcmp: a colon after a word that ends like a marker's
                // rarely has the marker's first letter where it would start.
                guard start >= from, start + count <= line.count, line[start] == spelling.text.utf8Start[0],
                      memcmp(base + start, spelling.text.utf8Start, count) == 0 else { continue }
                return (spelling, start)
            }
            colon = colon + 1 < limit ? markerColon(base, from: colon + 1, to: limit) : limit
        }
        return nil
    }

    /// The first colon in `base[start..<limit]` that passes `quickPair`, or `limit`
    /// (`cbytescan_marker_colon`). `start` is at least `quickLookBack`.
    @inline(__always)
    static func markerColon(_ base: UnsafeRawPointer, from start: Int, to limit: Int) -> Int {
        cbytescan_marker_colon(base.assumingMemoryBound(to: UInt8.self), start, limit)
    }

    /// How far before its first colon every marker's first word reaches (checked by the tests
    /// for every spelling): the quick test reads the byte this far back and the byte right
    /// before the colon.
    static var quickLookBack: Int { 8 }

    /// Whether a colon whose byte `quickLookBack` before it is `first` and whose byte before it
    /// is `last` can end a marker's first word: `CoreData:` (`C`…`a`), `CoreData+CloudKit:`
    /// (`C`loudKi`t`), `UbiquityStoreManager:` (`e`Manage`r`), `Core Data:` (C`o`re Dat`a`, the
    /// spelling with a space that some OS versions print). A family whose marker fits none
    /// of these is added here (the tests check every spelling against it).
    ///
    /// Two bytes compared as constants, not a colon's last byte looked up in a table: a table
    /// is a lazy global read on every line searched, and the last byte alone passes colons such
    /// as `error:`, `format:` or `data:` (on a quarter of the lines that start no header) on to
    /// all six spellings; the two bytes pass about half as many, most of them holding a marker.
    @inline(__always)
    static func quickPair(_ first: UInt8, _ last: UInt8) -> Bool {
        switch (first, last) {
        case (UInt8(ascii: "C"), UInt8(ascii: "a")), (UInt8(ascii: "C"), UInt8(ascii: "t")), (UInt8(ascii: "e"), UInt8(ascii: "r")),
             (UInt8(ascii: "o"), UInt8(ascii: "a")):
            return true
        default:
            return false
        }
    }

    /// Past the marker and the blanks after it (and the marker again, where it repeats).
    private static func markerEnd(_ spelling: MarkerSpelling, _ line: UnsafeRawBufferPointer, _ start: Int) -> Int {
        let count = spelling.text.utf8CodeUnitCount
        guard spelling.length == count else { return start + spelling.length }
        var end = skipBlanks(line, start + count)
        while spelling.repeats, end + count <= line.count, let base = line.baseAddress, memcmp(base + end, spelling.text.utf8Start, count) == 0 {
            end = skipBlanks(line, end + count)
        }
        return end
    }

    /// A logging method that ends right before `end` (blanks and a colon between them):
    /// `-[Class method:](123)`, `[Class method]_block_invoke(12)`, `+[Class method]:45`, `__34-[A b]`.
    static func methodBefore(_ line: UnsafeRawBufferPointer, _ end: Int, notBefore floor: Int)
        -> (method: Range<Int>, sourceLine: Range<Int>?)? {
        var at = end
        while at > floor, line[at - 1] == 0x20 || line[at - 1] == 0x09 { at -= 1 }
        if at > floor, line[at - 1] == UInt8(ascii: ":") { at -= 1 }
        var sourceLine: Range<Int>?
        if at > floor, line[at - 1] == UInt8(ascii: ")") {
            let digitsEnd = at - 1
            var digitsStart = digitsEnd
            while digitsStart > floor, isDigit(line[digitsStart - 1]) { digitsStart -= 1 }
            guard digitsStart < digitsEnd, digitsStart > floor, line[digitsStart - 1] == UInt8(ascii: "(") else { return nil }
            sourceLine = digitsStart..<digitsEnd
            at = digitsStart - 1
        } else if at > floor, isDigit(line[at - 1]) {
            let digitsEnd = at
            var digitsStart = digitsEnd
            while digitsStart > floor, isDigit(line[digitsStart - 1]) { digitsStart -= 1 }
            guard digitsStart > floor, line[digitsStart - 1] == UInt8(ascii: ":") else { return nil }
            sourceLine = digitsStart..<digitsEnd
            at = digitsStart - 1
        }
        let methodEnd = at
        // `_block_invoke` or `_block_invoke_2` after the closing bracket (or `block_invoke`,
        // without its underscore, as Apple's technotes print one CloudKit method).
        var digits = at
        while digits > floor, isDigit(line[digits - 1]) { digits -= 1 }
        if digits < at, digits > floor, line[digits - 1] == UInt8(ascii: "_"), hasBefore(line, digits - 1, blockInvoke, floor) {
            at = digits - 1 - blockInvoke.count
        } else if hasBefore(line, at, blockInvoke, floor) {
            at -= blockInvoke.count
        }
        if at < methodEnd, at > floor, line[at - 1] == UInt8(ascii: "_") { at -= 1 }
        guard at > floor, line[at - 1] == UInt8(ascii: "]") else { return nil }
        let close = at - 1
        var open = close
        while open > floor, close - open <= 400 {
            open -= 1
            let byte = line[open]
            if byte == UInt8(ascii: "[") { break }
            if byte == UInt8(ascii: "]") { return nil }
        }
        guard line[open] == UInt8(ascii: "["), open < close - 1 else { return nil }
        var start = open
        if start > floor, line[start - 1] == UInt8(ascii: "-") || line[start - 1] == UInt8(ascii: "+") {
            start -= 1
            // `__45-[…]`: the block's name as older compilers print it.
            var underscores = start
            while underscores > floor, isDigit(line[underscores - 1]) { underscores -= 1 }
            if underscores < start, underscores - 2 >= floor, line[underscores - 1] == UInt8(ascii: "_"), line[underscores - 2] == UInt8(ascii: "_") {
                start = underscores - 2
            }
        } else {
            guard looksLikeSelector(line, open + 1..<close) else { return nil }
        }
        return (start..<methodEnd, sourceLine)
    }

    /// Whether a method may start at `start` (`methodAt`): every one starts with `__`, a sign or
    /// `[`, and most messages with none of them. Inlined where a line's message is looked at, so
    /// that such a message costs no call.
    @inline(__always)
    static func mayStartMethod(_ line: UnsafeRawBufferPointer, _ start: Int) -> Bool {
        guard start >= 0, start < line.count else { return false }
        switch line[start] {
        case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "["): return true
        default: return false
        }
    }

    /// A logging method that starts at `start`, as loggers print it: `-[Class method:](12): `,
    /// `[Class method]:12 `, `+[Class method]_block_invoke: `; and where the message starts after it.
    static func methodAt(_ line: UnsafeRawBufferPointer, _ start: Int) -> (method: Range<Int>, sourceLine: Range<Int>?, end: Int)? {
        guard mayStartMethod(line, start) else { return nil }
        var at = start
        if has(line, at, doubleUnderscore) {
            let digits = skipDigits(line, at + 2)
            guard digits > at + 2 else { return nil }
            at = digits
        }
        let signed = at < line.count && (line[at] == UInt8(ascii: "-") || line[at] == UInt8(ascii: "+"))
        if signed { at += 1 } else if at != start { return nil }
        guard at < line.count, line[at] == UInt8(ascii: "[") else { return nil }
        let open = at
        // The name: 1 to 400 bytes, none of them `]`, `[` or a line feed, then `]`. (A line
        // with a byte at `start` has a base address.)
        let limit = min(line.count, open + 402)
        let close = Int(cbytescan_bracket_stop(line.baseAddress!.assumingMemoryBound(to: UInt8.self), open + 1, limit))
        guard close < limit, line[close] == UInt8(ascii: "]"), close > open + 1 else { return nil }
        guard signed || looksLikeSelector(line, open + 1..<close) else { return nil }
        at = close + 1
        if has(line, at, underscore), has(line, at + 1, blockInvoke) { at += 1 }
        if has(line, at, blockInvoke) {
            at += blockInvoke.count
            if has(line, at, underscore) {
                let digits = skipDigits(line, at + 1)
                if digits > at + 1 { at = digits }
            }
        }
        let methodEnd = at
        var sourceLine: Range<Int>?
        if has(line, at, openParenthesis) {
            let digits = skipDigits(line, at + 1)
            guard digits > at + 1, has(line, digits, closeParenthesis) else { return nil }
            sourceLine = at + 1..<digits
            at = digits + 1
            if has(line, at, colon) { at += 1 }
        } else if has(line, at, colon) {
            let digits = skipDigits(line, at + 1)
            if digits > at + 1 { sourceLine = at + 1..<digits }
            at = digits
            // CocoaLumberjack's default format puts a comma after the line: `[Class method]:88, message`.
            if has(line, at, colon) || (sourceLine != nil && has(line, at, comma)) { at += 1 }
        }
        // The method stands apart from the message: a blank (or the line's end) after it.
        guard at >= line.count || line[at] == 0x20 || line[at] == 0x09 else { return nil }
        return (start..<methodEnd, sourceLine, skipBlanks(line, at))
    }

    /// A logger's thread id: `[60b]`, `<0x1c2b>`, `[main]`: a short bracketed word with a digit
    /// in it (or `main`), then a blank.
    private static func threadToken(_ line: UnsafeRawBufferPointer, _ start: Int) -> (token: Range<Int>, end: Int)? {
        guard start < line.count else { return nil }
        let close: UInt8
        switch line[start] {
        case UInt8(ascii: "["): close = UInt8(ascii: "]")
        case UInt8(ascii: "<"): close = UInt8(ascii: ">")
        default: return nil
        }
        var at = start + 1
        var sawDigit = false
        while at < line.count, at - start <= 24, isThreadByte(line[at]) {
            sawDigit = sawDigit || isDigit(line[at])
            at += 1
        }
        guard at < line.count, line[at] == close, at > start + 1 else { return nil }
        let token = start + 1..<at
        guard sawDigit || has(line, token.lowerBound, main) && token.count == 4 else { return nil }
        let after = at + 1
        guard after < line.count, line[after] == 0x20 || line[after] == 0x09 else { return nil }
        return (token, skipBlanks(line, after))
    }

    /// `Class selector…`: a name, a blank, then a selector: what `[…]` holds when it is a method
    /// and not a logger's tag (`[USM]`, `[Sync]`).
    private static func looksLikeSelector(_ line: UnsafeRawBufferPointer, _ inside: Range<Int>) -> Bool {
        guard let first = inside.first, isNameStart(line[first]),
              let blank = inside.first(where: { line[$0] == 0x20 }), blank > first, blank + 1 < inside.upperBound
        else { return false }
        return isNameStart(line[blank + 1])
    }

    /// Whether the method at `method` ends with `name` (a selector and its closing bracket).
    /// The marker whose messages a record of `method` holds without their marker (`MarkerTable.methods`).
    private static func marker(namedBy method: Range<Int>, in line: UnsafeRawBufferPointer, _ markers: MarkerTable) -> Marker? {
        markers.methods.first { names($0.suffix, line, method) }?.marker
    }

    private static func names(_ name: [UInt8], _ line: UnsafeRawBufferPointer, _ method: Range<Int>) -> Bool {
        guard let close = (method.lowerBound..<method.upperBound).last(where: { line[$0] == UInt8(ascii: "]") }) else { return false }
        let start = close + 1 - name.count
        return start >= method.lowerBound && has(line, start, name)
    }

    private static let blockInvoke = Array("block_invoke".utf8)
    private static let doubleUnderscore = Array("__".utf8)
    private static let underscore = Array("_".utf8)
    private static let openParenthesis = Array("(".utf8)
    private static let closeParenthesis = Array(")".utf8)
    private static let colon = Array(":".utf8)
    private static let comma = Array(",".utf8)
    private static let main = Array("main".utf8)

    private static func has(_ line: UnsafeRawBufferPointer, _ at: Int, _ text: [UInt8]) -> Bool {
        guard at >= 0, at + text.count <= line.count, let base = line.baseAddress else { return false }
        return text.withUnsafeBytes { memcmp(base + at, $0.baseAddress!, text.count) == 0 }
    }

    /// Whether `text` ends right before `end`, within the bytes from `floor` on.
    private static func hasBefore(_ line: UnsafeRawBufferPointer, _ end: Int, _ text: [UInt8], _ floor: Int) -> Bool {
        end - text.count >= floor && has(line, end - text.count, text)
    }

    private static func skipBlanks(_ line: UnsafeRawBufferPointer, _ start: Int) -> Int {
        var at = start
        while at < line.count, line[at] == 0x20 || line[at] == 0x09 { at += 1 }
        return at
    }

    private static func skipDigits(_ line: UnsafeRawBufferPointer, _ start: Int) -> Int {
        var at = start
        while at < line.count, isDigit(line[at]) { at += 1 }
        return at
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte == UInt8(ascii: "_")
    }

    private static func isThreadByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "-")
    }
}
