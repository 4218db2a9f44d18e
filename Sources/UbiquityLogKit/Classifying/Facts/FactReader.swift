// The facts a warning or error names, read from its bytes in a few passes rather than by
// PCRE2 patterns: the NSError printed (`Error Domain=… Code=… "…"`), the entries of its user
// info a fact is made of (reason, description, file), and the log file, URL, peer, ubiquity
// root and transaction number the message names. Each reader finds what its pattern below
// finds, at the same place (`FactReaderTests` compares them on every rule's sample, the
// fixtures and random texts):
//
//     Error Domain=(?<domain>[^\s]+) Code=(?<code>-?\d+)(?: "(?<description>(?:[^"\\\n]|\\.)*)")?
//     \b(?:reason|NSLocalizedFailureReason)[ ]?=[ ]?(?:"(?<quoted>(?:[^"\\\n]|\\.)*)"|(?<plain>))
//     (and the same for the description's and the file's keys)
//     (?<url>file://[^\s)"';,}]+)|(?<log>[\w-]+\.\d+\.cdt)\b|(?<![\w~])(?<peer>[\w.-]+~UUID)\b
//       |ubiquityRootLocation: (?:<[^>\n]{1,80}>: )?(?<root>[^\n]+)|transaction(?:Number| number): (?<transaction>\d+)
//
// Why not the patterns: they are tried at every byte of a failure's text, each user-info
// pattern once for each of its two regions, and the facts pattern from each match on, for
// every warning and error. Read on the bytes, each text the patterns start or end with is
// looked for by its rarest byte, and what stands around it is checked where it is; and
// start-up compiles no pattern for facts.

extension Extract {
    // MARK: Bytes as PCRE2 reads them (no UTF, no Unicode properties)

    /// `\s`: blank, tab, line feed, vertical tab, form feed, carriage return.
    @inline(__always)
    static func isPatternSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }

    /// `\w`: ASCII letters, digits and `_`.
    @inline(__always)
    static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x5F
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    @inline(__always)
    private static func isHexDigitByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
    }

    /// Where `text` first starts in `buffer` at or after `start`, looked for by its byte at `anchor`.
    @inline(__always)
    static func find(_ text: StaticString, anchor: Int, in buffer: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard start < buffer.count else { return nil }
        return RareByteSearch.firstOffset(of: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount),
                                          anchor: anchor, in: UnsafeRawBufferPointer(rebasing: buffer[start...])).map { $0 + start }
    }

    static func anchor(of text: StaticString) -> Int {
        RareByteSearch.anchor(of: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Whether `text` stands in `buffer` at `offset`.
    @inline(__always)
    static func has(_ text: StaticString, in buffer: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard offset >= 0, offset + count <= buffer.count else { return false }
        let expected = text.utf8Start
        for index in 0..<count where buffer[offset + index] != expected[index] { return false }
        return true
    }

    /// The closing quote of `"(?:[^"\\\n]|\\.)*"` whose text starts at `start`: nil when the
    /// line or the buffer ends first (a backslash takes the byte after it, but a line end).
    /// Eight bytes a step to the next quote, backslash or line end: an error's description
    /// runs to hundreds of bytes, too many to take one at a time.
    static func closingQuote(in buffer: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var index = start
        while let stop = quoteStop(in: buffer, from: index) {
            switch buffer[stop] {
            case UInt8(ascii: "\""): return stop
            case 0x0A: return nil
            default:
                guard stop + 1 < buffer.count, buffer[stop + 1] != 0x0A else { return nil }
                index = stop + 2
            }
        }
        return nil
    }

    /// The first quote, backslash or line end at or after `start`.
    @inline(__always)
    private static func quoteStop(in buffer: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = buffer.baseAddress else { return nil }
        var index = start
        while index + 8 <= buffer.count {
            let word = (base + index).loadUnaligned(as: UInt64.self)
            let found = zeroBytes(word ^ 0x2222_2222_2222_2222) | zeroBytes(word ^ 0x5C5C_5C5C_5C5C_5C5C) | zeroBytes(word ^ 0x0A0A_0A0A_0A0A_0A0A)
            // The lowest flag marks the first such byte (little-endian); flags above it may be false.
            if found != 0 { return index + found.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < buffer.count {
            let byte = buffer[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x0A { return index }
            index += 1
        }
        return nil
    }

    /// The high bit of each byte of `word` that is zero, and perhaps of bytes above the first such.
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }

    // MARK: The NSError

    /// Where an NSError's parts stand in a message.
    struct ErrorMatch: Equatable {
        var domain: Range<Int>
        var code: Range<Int>
        var description: Range<Int>?
        /// Where the match ends: after the description's closing quote, or the code.
        var end: Int
    }

    private static let errorDomainText: StaticString = "Error Domain="
    private static let errorDomainTextAnchor = anchor(of: errorDomainText)

    /// The first `Error Domain=D Code=N "…"` from `start`, as the error pattern matches it.
    static func errorMatch(in buffer: UnsafeRawBufferPointer, from start: Int) -> ErrorMatch? {
        var from = start
        while let at = find(errorDomainText, anchor: errorDomainTextAnchor, in: buffer, from: from) {
            from = at + 1
            // `[^\s]+`, then ` Code=`: the run ends at the first blank, which must be that one's.
            let domainStart = at + errorDomainText.utf8CodeUnitCount
            var index = domainStart
            while index < buffer.count, !isPatternSpace(buffer[index]) { index += 1 }
            guard index > domainStart, has(" Code=", in: buffer, at: index) else { continue }
            let domain = domainStart..<index
            let codeStart = index + 6
            index = codeStart
            if index < buffer.count, buffer[index] == UInt8(ascii: "-") { index += 1 }
            let digits = index
            while index < buffer.count, isDigit(buffer[index]) { index += 1 }
            guard index > digits else { continue }
            var match = ErrorMatch(domain: domain, code: codeStart..<index, description: nil, end: index)
            if index + 1 < buffer.count, buffer[index] == 0x20, buffer[index + 1] == UInt8(ascii: "\""),
               let close = closingQuote(in: buffer, from: index + 2) {
                match.description = index + 2..<close
                match.end = close + 1
            }
            return match
        }
        return nil
    }

    // MARK: User-info entries

    /// Where the values of the first entries of each sort stand: just after `=` and the blank
    /// that may follow it; nil where there is none.
    struct UserInfoEntries: Equatable {
        /// `reason`, `NSLocalizedFailureReason`.
        var reason: Int?
        /// `NSLocalizedDescription`, `NSDescription`, `NSUnderlyingException`.
        var described: Int?
        /// `NSFilePath`, `NSURL`, `NSFileURL`, `NSStoreURL`, `NSDestinationFilePath`, `NSSourceFilePathErrorKey`.
        var filePath: Int?

        var isComplete: Bool { reason != nil && described != nil && filePath != nil }
    }

    private enum EntrySort { case reason, described, filePath }

    /// The first entry of each sort whose key starts at or after `start`: each `=` in `buffer`
    /// looked at once, with the key before it (`\bKEY[ ]?=`). The three patterns, each tried at
    /// every byte, find the same: a key holds no `=`, so entries come in the order of their `=`.
    static func userInfoEntries(in buffer: UnsafeRawBufferPointer, from start: Int) -> UserInfoEntries {
        var found = UserInfoEntries()
        var from = start
        while !found.isComplete, let equals = ByteSearch.firstOffset(of: UInt8(ascii: "="), in: buffer, from: from) {
            from = equals + 1
            let keyEnd = equals > 0 && buffer[equals - 1] == 0x20 ? equals - 1 : equals
            guard let (sort, keyStart) = key(endingAt: keyEnd, in: buffer), keyStart >= start,
                  keyStart == 0 || !isWordByte(buffer[keyStart - 1]) else { continue }
            var value = equals + 1
            if value < buffer.count, buffer[value] == 0x20 { value += 1 }
            switch sort {
            case .reason: if found.reason == nil { found.reason = value }
            case .described: if found.described == nil { found.described = value }
            case .filePath: if found.filePath == nil { found.filePath = value }
            }
        }
        return found
    }

    /// The key that ends at `end`, told by its last byte first (most `=` in a message end no key).
    private static func key(endingAt end: Int, in buffer: UnsafeRawBufferPointer) -> (EntrySort, Int)? {
        guard end > 0 else { return nil }
        func ends(_ key: StaticString) -> Int? {
            let start = end - key.utf8CodeUnitCount
            return has(key, in: buffer, at: start) ? start : nil
        }
        switch buffer[end - 1] {
        case UInt8(ascii: "n"):
            if let start = ends("reason") { return (.reason, start) }
            if let start = ends("NSLocalizedFailureReason") { return (.reason, start) }
            if let start = ends("NSLocalizedDescription") { return (.described, start) }
            if let start = ends("NSDescription") { return (.described, start) }
            // An exception caught and wrapped in an error (OS X 10.7, iOS 5 and 6): its reason
            // is the error's only account of what failed.
            if let start = ends("NSUnderlyingException") { return (.described, start) }
        case UInt8(ascii: "h"):
            if let start = ends("NSFilePath") { return (.filePath, start) }
            if let start = ends("NSDestinationFilePath") { return (.filePath, start) }
        case UInt8(ascii: "L"):
            if let start = ends("NSURL") { return (.filePath, start) }
            if let start = ends("NSFileURL") { return (.filePath, start) }
            if let start = ends("NSStoreURL") { return (.filePath, start) }
        case UInt8(ascii: "y"):
            if let start = ends("NSSourceFilePathErrorKey") { return (.filePath, start) }
        default:
            break
        }
        return nil
    }

    /// Where the value that starts at `start` stands: quoted, its text inside the quotes; else
    /// up to `plainValueEnd`.
    static func userInfoValueRange(in buffer: UnsafeRawBufferPointer, at start: Int) -> Range<Int> {
        if start < buffer.count, buffer[start] == UInt8(ascii: "\""), let close = closingQuote(in: buffer, from: start + 1) {
            return start + 1..<close
        }
        return start..<plainValueEnd(buffer, from: start)
    }

    // MARK: Log, URL, peer, root, transaction

    /// Which group of the facts pattern a match is of, in the pattern's order.
    enum FactSort: Int, CaseIterable { case url, log, peer, root, transaction }

    struct FactMatch: Equatable {
        var sort: FactSort
        /// The whole match.
        var start: Int
        var end: Int
        /// The group's text.
        var value: Range<Int>
    }

    /// The facts pattern's matches in one message, found as it searches: the first match from
    /// a place is the one that starts first, of the sorts in order where two start together.
    /// Each sort's next match is kept until the search passes its start: where a match of a
    /// sort can start depends on the bytes alone, never on where the search began.
    struct FactScanner {
        let message: UnsafeRawBufferPointer
        /// By sort: the next match, and where it was looked for from (-1: not yet). Five
        /// variables, not arrays: two arrays would be allocated for every warning.
        private typealias Slot = (match: FactMatch?, from: Int)
        private var url: Slot = (nil, -1)
        private var log: Slot = (nil, -1)
        private var peer: Slot = (nil, -1)
        private var root: Slot = (nil, -1)
        private var transaction: Slot = (nil, -1)

        init(_ message: UnsafeRawBufferPointer) { self.message = message }

        mutating func first(from position: Int) -> FactMatch? {
            var best: FactMatch?
            func consider(_ slot: inout Slot, _ sort: FactSort) {
                if slot.from < 0 || (slot.match.map { $0.start < position } ?? (slot.from > position)) {
                    slot = (Extract.next(sort, in: message, from: position), position)
                }
                if let found = slot.match, best.map({ found.start < $0.start }) ?? true { best = found }
            }
            consider(&url, .url)
            consider(&log, .log)
            consider(&peer, .peer)
            consider(&root, .root)
            consider(&transaction, .transaction)
            return best
        }
    }

    private static let fileScheme: StaticString = "file://"
    private static let fileSchemeAnchor = anchor(of: fileScheme)
    private static let cdtSuffixText: StaticString = ".cdt"
    private static let cdtSuffixAnchor = anchor(of: cdtSuffixText)
    private static let rootLabel: StaticString = "ubiquityRootLocation: "
    private static let rootLabelAnchor = anchor(of: rootLabel)
    private static let transactionLabels: [(text: StaticString, anchor: Int)] = {
        let labels: [StaticString] = ["transactionNumber: ", "transaction number: "]
        return labels.map { ($0, anchor(of: $0)) }
    }()

    /// The first match of one sort that starts at or after `start`.
    static func next(_ sort: FactSort, in message: UnsafeRawBufferPointer, from start: Int) -> FactMatch? {
        switch sort {
        case .url: nextURL(in: message, from: start)
        case .log: nextLog(in: message, from: start)
        case .peer: nextPeer(in: message, from: start)
        case .root: nextRoot(in: message, from: start)
        case .transaction: nextTransaction(in: message, from: start)
        }
    }

    /// `file://[^\s)"';,}]+`
    private static func nextURL(in message: UnsafeRawBufferPointer, from start: Int) -> FactMatch? {
        var from = start
        while let at = find(fileScheme, anchor: fileSchemeAnchor, in: message, from: from) {
            from = at + 1
            var end = at + fileScheme.utf8CodeUnitCount
            while end < message.count, !isURLStop(message[end]) { end += 1 }
            if end > at + fileScheme.utf8CodeUnitCount { return FactMatch(sort: .url, start: at, end: end, value: at..<end) }
        }
        return nil
    }

    private static func isURLStop(_ byte: UInt8) -> Bool {
        isPatternSpace(byte) || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
            || byte == UInt8(ascii: ";") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}")
    }

    /// `[\w-]+\.\d+\.cdt\b`: found by its `.cdt`, read back over the digits, the dot and the
    /// name. From a place, `[\w-]+` runs to the dot whatever byte of the name it starts at, so
    /// the match starts at the name's start, or at `start` inside the name.
    private static func nextLog(in message: UnsafeRawBufferPointer, from start: Int) -> FactMatch? {
        var from = start
        while let at = find(cdtSuffixText, anchor: cdtSuffixAnchor, in: message, from: from) {
            from = at + 1
            let end = at + cdtSuffixText.utf8CodeUnitCount
            guard end == message.count || !isWordByte(message[end]) else { continue }
            var digits = at
            while digits > 0, isDigit(message[digits - 1]) { digits -= 1 }
            guard digits < at, digits > 0, message[digits - 1] == UInt8(ascii: ".") else { continue }
            let dot = digits - 1
            var name = dot
            while name > 0, isWordByte(message[name - 1]) || message[name - 1] == UInt8(ascii: "-") { name -= 1 }
            let matchStart = max(name, start)
            guard matchStart < dot else { continue }
            return FactMatch(sort: .log, start: matchStart, end: end, value: matchStart..<end)
        }
        return nil
    }

    /// `(?<![\w~])[\w.-]+~` and a UUID, `\b`: found by its `~`. The name runs back over
    /// `[\w.-]`; the match starts at its first byte (from `start`) not after a `[\w~]`.
    private static func nextPeer(in message: UnsafeRawBufferPointer, from start: Int) -> FactMatch? {
        var from = start
        while let tilde = ByteSearch.firstOffset(of: UInt8(ascii: "~"), in: message, from: from) {
            from = tilde + 1
            guard isUUID(message, at: tilde + 1) else { continue }
            let end = tilde + 37
            var name = tilde
            while name > 0, isWordByte(message[name - 1]) || message[name - 1] == UInt8(ascii: ".") || message[name - 1] == UInt8(ascii: "-") {
                name -= 1
            }
            var matchStart = max(name, start)
            while matchStart < tilde, matchStart > 0, isWordByte(message[matchStart - 1]) || message[matchStart - 1] == UInt8(ascii: "~") {
                matchStart += 1
            }
            guard matchStart < tilde else { continue }
            return FactMatch(sort: .peer, start: matchStart, end: end, value: matchStart..<end)
        }
        return nil
    }

    /// `[0-9A-Fa-f]{8}-{4}-{4}-{4}-{12}\b` at `start`.
    private static func isUUID(_ message: UnsafeRawBufferPointer, at start: Int) -> Bool {
        guard start + 36 <= message.count else { return false }
        for offset in 0..<36 {
            let byte = message[start + offset]
            if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard isHexDigitByte(byte) else { return false }
            }
        }
        return start + 36 == message.count || !isWordByte(message[start + 36])
    }

    /// `ubiquityRootLocation: (?:<[^>\n]{1,80}>: )?(?<root>[^\n]+)`: the rest of the line,
    /// after the location's description when something follows it.
    private static func nextRoot(in message: UnsafeRawBufferPointer, from start: Int) -> FactMatch? {
        var from = start
        while let at = find(rootLabel, anchor: rootLabelAnchor, in: message, from: from) {
            from = at + 1
            let valueStart = at + rootLabel.utf8CodeUnitCount
            let lineEnd = ByteSearch.firstOffset(of: 0x0A, in: message, from: valueStart) ?? message.count
            if valueStart < lineEnd, message[valueStart] == UInt8(ascii: "<") {
                var close = valueStart + 1
                while close < lineEnd, close - valueStart <= 80, message[close] != UInt8(ascii: ">") { close += 1 }
                if close > valueStart + 1, close - valueStart <= 81, close < lineEnd, message[close] == UInt8(ascii: ">"),
                   has(": ", in: message, at: close + 1), close + 3 < lineEnd {
                    return FactMatch(sort: .root, start: at, end: lineEnd, value: close + 3..<lineEnd)
                }
            }
            guard valueStart < lineEnd else { continue }
            return FactMatch(sort: .root, start: at, end: lineEnd, value: valueStart..<lineEnd)
        }
        return nil
    }

    /// `transaction(?:Number| number): (?<transaction>\d+)`
    private static func nextTransaction(in message: UnsafeRawBufferPointer, from start: Int) -> FactMatch? {
        var best: FactMatch?
        for label in transactionLabels {
            var from = start
            while let at = find(label.text, anchor: label.anchor, in: message, from: from) {
                if let best, at > best.start { break }
                from = at + 1
                let digits = at + label.text.utf8CodeUnitCount
                var end = digits
                while end < message.count, isDigit(message[end]) { end += 1 }
                guard end > digits else { continue }
                if best.map({ at < $0.start }) ?? true { best = FactMatch(sort: .transaction, start: at, end: end, value: digits..<end) }
                break
            }
        }
        return best
    }
}
