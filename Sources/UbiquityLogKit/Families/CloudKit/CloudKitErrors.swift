// The errors a mirroring record carries, read from its text: every CKError description
// (`<CKError 0x…: "Name" (public/internal); "message"; server message = "…"; …>`), each entry
// of a `partial errors: {…}` dictionary (found by its `KEY = <CKError …>` shape, not by line
// breaks, so that flattened pastes read the same), the count of batch errors CloudKit left out,
// and the Core Data mirroring codes (134400, 134406, 134410, 134417, …); and the cause they
// add up to (CloudKitErrorCauses.swift).

enum CloudKitErrors {
    /// Reads every error in `text` (a mirroring record's message).
    static func report(in text: String) -> CloudKitErrorReport {
        Array(text.utf8).withUnsafeBytes { report(bytes: $0) }
    }

    /// Reads every error in a mirroring record's message, given as its bytes: rules pass
    /// `RuleMatch.messageBytes`, so no String is made of the whole failure text. Invalid UTF-8
    /// is read as a String would hold it (each bad sequence a U+FFFD), so that offsets and
    /// limits fall where a String's would. Valid UTF-8 (nearly every record) is read where it
    /// stands, never copied into an array first.
    static func report(in message: UnsafeRawBufferPointer) -> CloudKitErrorReport {
        ByteText.isValidUTF8(message) ? report(bytes: message) : Array(ByteText.string(message).utf8).withUnsafeBytes { report(bytes: $0) }
    }

    private static func report(bytes: UnsafeRawBufferPointer) -> CloudKitErrorReport {
        var report = CloudKitErrorReport()
        report.errors = descriptions(in: bytes)
        report.omittedBatchErrors = omitted(in: bytes)
        report.errorCodes = errorCodes(in: bytes)
        (report.cause, report.causeErrors) = cause(of: report, bytes: bytes)
        return report
    }

    // MARK: CKError descriptions

    private static let open = Array("<CKError ".utf8)
    private static let ckErrorDomainCode = Array("CKErrorDomain Code=".utf8)
    private static let ckErrorDomainError = Array("(CKErrorDomain error ".utf8)

    /// At most this many `<CKError ` openings are read, whether a description follows or not.
    static let maxDescriptions = 500

    static func descriptions(in bytes: UnsafeRawBufferPointer) -> [CKErrorDescription] {
        var found: [CKErrorDescription] = []
        var from = 0
        var tried = 0
        var scans = Scans()
        while let at = find(open, in: bytes, from: from) {
            from = at + open.count
            if var error = description(in: bytes, at: from, &scans) {
                (error.record, error.zone) = entryKey(in: bytes, before: at, zone: error.zone)
                found.append(error)
            }
            // A failed description counts too: `<CKError 0x1: "x` repeated over a megabyte
            // has no end, and each of its openings is one more try.
            tried += 1
            if tried >= maxDescriptions { break }
        }
        if found.isEmpty { found = strippedDescriptions(in: bytes, &scans) }
        // A bare `CKErrorDomain Code=N` or `(CKErrorDomain error N.)` when no description is printed.
        if found.isEmpty {
            for code in codes(after: ckErrorDomainCode, in: bytes) + codes(after: ckErrorDomainError, in: bytes) {
                found.append(CKErrorDescription(name: CKErrorCode.name(of: code) ?? "CKError \(code)", code: code))
            }
        }
        return found
    }

    /// `0x…: "Name" (A/B); "message"; server message = "…"; op = …; container ID = "…"; Retry after N seconds`
    private static func description(in bytes: UnsafeRawBufferPointer, at start: Int, _ scans: inout Scans) -> CKErrorDescription? {
        var index = start
        // The address, or `<private>`, up to `: `.
        while index < bytes.count, bytes[index] != UInt8(ascii: ":"), bytes[index] != 0x0A, index - start < 40 { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        skipBlanks(bytes, &index)
        return description(in: bytes, nameAt: index, &scans)
    }

    private static let strippedOpening = Array("\" (".utf8)

    /// Descriptions whose `<CKError 0x…` a copy stripped (read as markup): what is left,
    /// `"Zone Not Found" (26/2036); server message = "…"`, is read by its name, a capitalised
    /// quoted text of words, and the codes after it. At most `maxDescriptions` are tried.
    static func strippedDescriptions(in bytes: UnsafeRawBufferPointer, _ scans: inout Scans) -> [CKErrorDescription] {
        var found: [CKErrorDescription] = []
        var from = 0
        var tried = 0
        while let close = find(strippedOpening, in: bytes, from: from), tried < maxDescriptions {
            from = close + strippedOpening.count
            tried += 1
            // The codes: digits, then `/` or `)` (`(26/2036)`, `(12)`), not words (`(3 items)`).
            var digitsEnd = from
            while digitsEnd < bytes.count, bytes[digitsEnd] &- UInt8(ascii: "0") < 10 { digitsEnd += 1 }
            guard digitsEnd > from, digitsEnd < bytes.count, bytes[digitsEnd] == UInt8(ascii: "/") || bytes[digitsEnd] == UInt8(ascii: ")") else { continue }
            var open = close - 1
            while open >= 0, close - open <= 60, bytes[open] != UInt8(ascii: "\""), bytes[open] != 0x0A,
                  bytes[open] == 0x20 || (bytes[open] | 0x20) >= UInt8(ascii: "a") && (bytes[open] | 0x20) <= UInt8(ascii: "z") { open -= 1 }
            guard open >= 0, bytes[open] == UInt8(ascii: "\""), open + 1 < close,
                  bytes[open + 1] >= UInt8(ascii: "A"), bytes[open + 1] <= UInt8(ascii: "Z") else { continue }
            if let error = description(in: bytes, nameAt: open, &scans) { found.append(error) }
        }
        return found
    }

    /// `"Name" (A/B); "message"; …` from the name's opening quote at `start`.
    private static func description(in bytes: UnsafeRawBufferPointer, nameAt start: Int, _ scans: inout Scans) -> CKErrorDescription? {
        var index = start
        guard let name = quoted(bytes, &index, &scans) else { return nil }
        var error = CKErrorDescription(name: name)
        skipBlanks(bytes, &index)
        if index < bytes.count, bytes[index] == UInt8(ascii: "(") {
            index += 1
            error.code = number(bytes, &index)
            if index < bytes.count, bytes[index] == UInt8(ascii: "/") {
                index += 1
                error.internalCode = number(bytes, &index)
                // `(6/NSCocoaErrorDomain:4099)`: the internal error is of another domain.
                if error.internalCode == nil, let domain = word(bytes, &index, stop: UInt8(ascii: ":")),
                   index < bytes.count, bytes[index] == UInt8(ascii: ":") {
                    index += 1
                    error.internalDomain = domain
                    error.internalCode = number(bytes, &index)
                }
            }
            // `(2022)` alone is the internal code.
            if error.internalCode == nil, let code = error.code, code >= 1000 { error.internalCode = code; error.code = nil }
            if index < bytes.count, bytes[index] == UInt8(ascii: ")") { index += 1 }
        }
        // Segments up to the description's end or its partial errors.
        var segments = 0
        while index < bytes.count, segments < 20 {
            skipBlanks(bytes, &index)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ";") else { break }
            index += 1
            skipBlanks(bytes, &index)
            segments += 1
            if let text = quoted(bytes, &index, &scans) {
                if error.message == nil { error.message = text }
            } else if take("server message = ", bytes, &index) {
                error.serverMessage = quoted(bytes, &index, &scans)
            } else if take("container ID = ", bytes, &index) {
                error.container = quoted(bytes, &index, &scans) ?? word(bytes, &index)
            } else if take("Retry after ", bytes, &index) {
                error.retryAfter = word(bytes, &index)
            } else if take("partial errors: ", bytes, &index) {
                break
            } else {
                _ = word(bytes, &index)  // op = …, uuid = …: not kept
                // A value a sysdiagnose redacted ends at its own `>`, not the description's.
                if take(" = <private>", bytes, &index) { continue }
                index = scans.segmentEnd(in: bytes, from: index)
            }
        }
        if let server = error.serverMessage { readServerMessage(server, into: &error) }
        if let message = error.message { readServerMessage(message, into: &error) }
        return error
    }

    /// Record type, field and zone named by a server message.
    private static func readServerMessage(_ text: String, into error: inout CKErrorDescription) {
        // Read where the String keeps its bytes (a native String always does), not copied out.
        if text.utf8.withContiguousStorageIfAvailable({ readServerMessage(UnsafeRawBufferPointer($0), into: &error) }) == nil {
            Array(text.utf8).withUnsafeBytes { readServerMessage($0, into: &error) }
        }
    }

    private static func readServerMessage(_ bytes: UnsafeRawBufferPointer, into error: inout CKErrorDescription) {
        if let at = find(fieldOpen, in: bytes, from: 0) {
            error.field = error.field ?? upTo(UInt8(ascii: "'"), bytes, at + 7)
            if let type = find(recordOpen, in: bytes, from: at) { error.recordType = error.recordType ?? upTo(UInt8(ascii: "'"), bytes, type + 11) }
        }
        if let at = find(newType, in: bytes, from: 0) {
            var index = at + 23
            error.recordType = error.recordType ?? word(bytes, &index)
        }
        if let at = find(zoneOpen, in: bytes, from: 0) { error.zone = error.zone ?? upTo(UInt8(ascii: "'"), bytes, at + 6) }
    }

    // Made once, not an array from a literal at each of the two calls a CKError makes.
    private static let fieldOpen = Array("field '".utf8)
    private static let recordOpen = Array("in record '".utf8)
    private static let newType = Array("Cannot create new type ".utf8)
    private static let zoneOpen = Array("Zone '".utf8)

    /// The partial-error entry a CKError at `start` is the value of: `KEY = <CKError`, where the
    /// key is `record:(zone:owner)`, `zone:owner`, `<CKRecordID: …; recordName=R, zoneID=Z:o>`
    /// or a subscription id, quoted or not; read back to the entry's start (a brace, a line end,
    /// a tab, a comma, or the `>` that ends the entry before it).
    private static func entryKey(in bytes: UnsafeRawBufferPointer, before start: Int, zone: String?) -> (String?, String?) {
        var end = start
        if end > 0, bytes[end - 1] == UInt8(ascii: "\"") { end -= 1 }  // `= "<CKError`
        guard end >= 3, bytes[end - 3] == 0x20, bytes[end - 2] == UInt8(ascii: "="), bytes[end - 1] == 0x20 else { return (nil, zone) }
        end -= 3
        if end > 0, bytes[end - 1] == UInt8(ascii: "\"") { end -= 1 }
        var keyStart = end
        if keyStart > 0, bytes[keyStart - 1] == UInt8(ascii: ">") {
            // `<CKRecordID: 0x…; recordName=R, zoneID=Z:owner>`: back to its `<`.
            while keyStart > 0, end - keyStart < 400, bytes[keyStart - 1] != UInt8(ascii: "<"), bytes[keyStart - 1] != 0x0A { keyStart -= 1 }
            if keyStart > 0, bytes[keyStart - 1] == UInt8(ascii: "<") { keyStart -= 1 }
        } else {
            // `record:(zone:owner)`, `zone:owner`, a subscription id: no blanks inside.
            while keyStart > 0, end - keyStart < 400,
                  !isKeyStop(bytes[keyStart - 1]) {
                keyStart -= 1
            }
        }
        // Keys are ASCII (record names, zone names, addresses): read on their bytes. The String
        // path below, which walks the key Character by Character, is only for keys that are not.
        if let read = asciiEntryKey(bytes, keyStart..<end, zone: zone) { return read }
        let key = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[keyStart..<end]), as: UTF8.self).trimmingCharacters(in: " \t\"")
        guard !key.isEmpty else { return (nil, zone) }
        if let name = key.firstRange(ofASCII: "recordName=") {
            let record = String(key[name.upperBound...].prefix { $0 != "," && $0 != ">" && $0 != ";" })
            var foundZone = zone
            if let zoneID = key.firstRange(ofASCII: "zoneID=") {
                foundZone = String(key[zoneID.upperBound...].prefix { $0 != ":" && $0 != ">" && $0 != "," })
            }
            return (record, foundZone)
        }
        if let paren = key.firstRange(ofASCII: ":(") {
            let zonePart = key[paren.upperBound...].prefix { $0 != ":" && $0 != ")" }
            return (String(key[..<paren.lowerBound]), zone ?? String(zonePart))
        }
        if let colon = key.firstIndex(of: ":") { return (nil, zone ?? String(key[..<colon])) }
        return (key, zone)
    }

    private static let batchRequestFailed = Array("Batch Request Failed".utf8)
    private static let omitedWord = Array("omited".utf8)
    private static let omittedWord = Array("omitted".utf8)

    /// `entryKey` on a key of ASCII bytes, the same reading as its String path gives (nil for
    /// a key that is not ASCII: grapheme clusters could then join a delimiter to what follows).
    private static func asciiEntryKey(_ all: UnsafeRawBufferPointer, _ range: Range<Int>, zone: String?) -> (String?, String?)? {
        do {
            var lower = range.lowerBound
            var upper = range.upperBound
            for index in lower..<upper where all[index] >= 0x80 { return nil }
            func isTrimmed(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == UInt8(ascii: "\"") }
            while lower < upper, isTrimmed(all[lower]) { lower += 1 }
            while lower < upper, isTrimmed(all[upper - 1]) { upper -= 1 }
            guard lower < upper else { return (nil, zone) }
            let key = UnsafeRawBufferPointer(rebasing: all[lower..<upper])
            func text(_ from: Int, _ to: Int) -> String { String(decoding: UnsafeRawBufferPointer(rebasing: key[from..<to]), as: UTF8.self) }
            /// From `from` up to the first of `stops`, or the key's end.
            func run(from: Int, until stops: StaticString) -> String {
                let stop = UnsafeBufferPointer(start: stops.utf8Start, count: stops.utf8CodeUnitCount)
                var end = from
                while end < key.count, !stop.contains(key[end]) { end += 1 }
                return text(from, end)
            }
            func offset(of needle: StaticString) -> Int? {
                ByteSearch.firstOffset(of: UnsafeRawBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount), in: key)
            }
            if let name = offset(of: "recordName=") {
                let record = run(from: name + 11, until: ",>;")
                return (record, offset(of: "zoneID=").map { run(from: $0 + 7, until: ":>,") } ?? zone)
            }
            if let paren = offset(of: ":(") {
                return (text(0, paren), zone ?? run(from: paren + 2, until: ":)"))
            }
            if let colon = ByteSearch.firstOffset(of: UInt8(ascii: ":"), in: key, from: 0) { return (nil, zone ?? text(0, colon)) }
            return (text(0, key.count), zone)
        }
    }

    static func omitted(in bytes: UnsafeRawBufferPointer) -> Int {
        var total = 0
        var from = 0
        let phrase = batchRequestFailed
        while let at = find(phrase, in: bytes, from: from) {
            from = at + phrase.count
            // `N "Batch Request Failed" CKError's omited`, the quotes maybe escaped.
            let tail = UnsafeRawBufferPointer(rebasing: bytes[from..<min(bytes.count, from + 30)])
            guard find(omitedWord, in: tail, from: 0) != nil || find(omittedWord, in: tail, from: 0) != nil else { continue }
            var index = at - 1
            while index >= 0, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "\\") || bytes[index] == 0x20 { index -= 1 }
            let digitsEnd = index + 1
            while index >= 0, bytes[index] &- UInt8(ascii: "0") < 10 { index -= 1 }
            guard digitsEnd > index + 1 else { continue }
            var position = index + 1
            total.saturatingAdd(number(bytes, &position) ?? 0)
        }
        return total
    }

    static func errorCodes(in bytes: UnsafeRawBufferPointer) -> [Int] {
        // `Error Domain=NSCocoaErrorDomain Code=N`, and `NSCocoaErrorDomain:N` as recovery prints it.
        codes(after: cocoaCode, in: bytes) + codes(after: cocoaColon, in: bytes)
    }

    private static let cocoaCode = Array("NSCocoaErrorDomain Code=".utf8)
    private static let cocoaColon = Array("NSCocoaErrorDomain:".utf8)

    private static func codes(after prefix: [UInt8], in bytes: UnsafeRawBufferPointer) -> [Int] {
        var found: [Int] = []
        var from = 0
        while let at = find(prefix, in: bytes, from: from), found.count < 20 {
            var index = at + prefix.count
            from = index
            if let code = number(bytes, &index), !found.contains(code) { found.append(code) }
        }
        return found
    }

    // MARK: Bytes

    static func find(_ needle: [UInt8], in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard !needle.isEmpty, start >= 0, bytes.count - start >= needle.count else { return nil }
        return needle.withUnsafeBytes { ByteSearch.firstOffset(of: $0, in: UnsafeRawBufferPointer(rebasing: bytes[start...])) }
            .map { $0 + start }
    }

    private static func skipBlanks(_ bytes: UnsafeRawBufferPointer, _ index: inout Int) {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A { index += 1 }
    }

    private static func take(_ text: StaticString, _ bytes: UnsafeRawBufferPointer, _ index: inout Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let expected = UnsafeBufferPointer(start: text.utf8Start, count: count)
        for offset in 0..<count where bytes[index + offset] != expected[offset] { return false }
        index += count
        return true
    }

    /// What the scans of one message's descriptions have found, so that no byte is scanned
    /// again from each description's start: `<CKError 0x1: "x` repeated has a quoted name
    /// that runs to the line's end at each of its openings (1 MB took 27 s).
    struct Scans {
        /// From any start in `quoteFrom...quoteTo`, the first closing quote is at `quoteTo`
        /// (`quoteFound`), or there is none before the line end at `quoteTo`.
        var quoteFrom = -1, quoteTo = -1, quoteFound = false
        /// From any start in `segmentFrom...segmentTo`, a segment ends at `segmentTo`.
        var segmentFrom = -1, segmentTo = -1

        /// The closing quote of a text that starts at `start`: a quote before `;`, `>`, `,`,
        /// `)`, ` (`, a line end or the end; nil when none comes before a line end. Whether a
        /// quote closes depends only on what follows it, so the answer holds for every start
        /// up to it.
        mutating func closingQuote(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
            if start >= quoteFrom, start <= quoteTo { return quoteFound ? quoteTo : nil }
            var end = start
            while end < bytes.count, bytes[end] != 0x0A {
                if bytes[end] == UInt8(ascii: "\""), CloudKitErrors.closes(bytes, after: end + 1) {
                    (quoteFrom, quoteTo, quoteFound) = (start, end, true)
                    return end
                }
                end += 1
            }
            (quoteFrom, quoteTo, quoteFound) = (start, end, false)
            return nil
        }

        /// The first `;`, `>` or line end at or after `start` (`bytes.count` when none).
        mutating func segmentEnd(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
            if start >= segmentFrom, start <= segmentTo { return segmentTo }
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: ";"), bytes[end] != UInt8(ascii: ">"), bytes[end] != 0x0A {
                end += 1
            }
            (segmentFrom, segmentTo) = (start, end)
            return end
        }
    }

    private static func closes(_ bytes: UnsafeRawBufferPointer, after: Int) -> Bool {
        after >= bytes.count || isQuoteEnd(bytes[after])
            || bytes[after] == 0x20 && after + 1 < bytes.count && bytes[after + 1] == UInt8(ascii: "(")
    }

    /// A quoted text (`"…"` or `\"…\"`), ending at a quote before `;`, `>`, `,`, a line end or
    /// the end: server messages hold quotes of their own.
    private static func quoted(_ bytes: UnsafeRawBufferPointer, _ index: inout Int, _ scans: inout Scans) -> String? {
        var at = index
        if at < bytes.count, bytes[at] == UInt8(ascii: "\\") { at += 1 }
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { return nil }
        let start = at + 1
        guard let end = scans.closingQuote(in: bytes, from: start) else { return nil }
        var textEnd = end
        if textEnd > start, bytes[textEnd - 1] == UInt8(ascii: "\\") { textEnd -= 1 }
        index = end + 1
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<textEnd]), as: UTF8.self)
    }

    private static func word(_ bytes: UnsafeRawBufferPointer, _ index: inout Int, stop: UInt8? = nil) -> String? {
        let start = index
        while index < bytes.count, !isWordEnd(bytes[index]), bytes[index] != stop, bytes[index] != UInt8(ascii: ")") || stop == nil { index += 1 }
        return index > start ? String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self) : nil
    }

    // The sets of bytes that end a text, as switches: arrays made from literals for each byte
    // looked at.
    private static func isKeyStop(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, UInt8(ascii: "{"), UInt8(ascii: ","), UInt8(ascii: ">"), UInt8(ascii: "\""): true
        default: false
        }
    }

    private static func isQuoteEnd(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ";"), UInt8(ascii: ">"), UInt8(ascii: ","), 0x0A, UInt8(ascii: ")"): true
        default: false
        }
    }

    private static func isWordEnd(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x0A, 0x09, UInt8(ascii: ";"), UInt8(ascii: ">"), UInt8(ascii: ","): true
        default: false
        }
    }

    private static func upTo(_ stop: UInt8, _ bytes: UnsafeRawBufferPointer, _ start: Int) -> String? {
        var end = start
        while end < bytes.count, bytes[end] != stop, bytes[end] != 0x0A, end - start < 200 { end += 1 }
        return end > start && end < bytes.count && bytes[end] == stop ? String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) : nil
    }

    private static func number(_ bytes: UnsafeRawBufferPointer, _ index: inout Int) -> Int? {
        let start = index
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10, index - start < 12 { index += 1 }
        // At most 12 digits: the value is never too large, and made without a String.
        guard index > start else { return nil }
        var value = 0
        for digit in start..<index { value = value * 10 + Int(bytes[digit] &- UInt8(ascii: "0")) }
        return value
    }
}
