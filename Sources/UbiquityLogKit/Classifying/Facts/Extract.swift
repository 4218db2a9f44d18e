// Parsing what patterns leave whole: the NSError a message prints, the facts a warning or
// error names, and the names users find things by (log files, stores, knowledge vectors).
// The byte readers these use are in FactReader.swift.

enum Extract {
    /// The first NSError printed in `text`, with the `reason` and file from its user info and
    /// the error under it, in the iOS 7 (`UserInfo=0x… {…}`) and iOS 9 (`UserInfo={…}`) forms.
    /// For tests and cold paths; rules use `RuleMatch.error(from:)`.
    static func error(in text: String) -> ErrorInfo? {
        Array(text.utf8).withUnsafeBytes { error(in: $0, from: 0) }
    }

    /// The error's parts are read on the bytes (`errorMatch`, `userInfoEntries`), not by PCRE2
    /// patterns, which would each run over two regions of every failure's text.
    static func error(in buffer: UnsafeRawBufferPointer, from start: Int, depth: Int = 0) -> ErrorInfo? {
        guard let match = errorMatch(in: buffer, from: start), let code = signedDecimal(buffer, match.code) else { return nil }
        var info = ErrorInfo(domain: ByteText.string(UnsafeRawBufferPointer(rebasing: buffer[match.domain])), code: code,
                             description: slice(buffer, match.description))
        let after = match.end
        // The error under this one comes next, inside its user info: what follows it is its own.
        var end = buffer.count
        var resume = buffer.count
        if depth < 3, let at = underlyingEntry(in: buffer, from: after) {
            end = at.lowerBound
            resume = endOfValue(buffer, from: at.upperBound)
            if let inner = underlyingError(in: buffer, from: at.upperBound, depth: depth + 1) { info.underlying = [inner] }
        }
        // This error's own entries stand before the error under it and after its braces; the
        // entries after the error under it only stand for those it lacks.
        let own = UnsafeRawBufferPointer(rebasing: buffer[..<end])
        let first = userInfoEntries(in: own, from: after)
        let rest = !first.isComplete && resume < buffer.count ? userInfoEntries(in: buffer, from: resume) : UserInfoEntries()
        info.reason = value(first.reason, in: own) ?? value(rest.reason, in: buffer)
            ?? value(first.described, in: own) ?? value(rest.described, in: buffer)
        info.filePath = value(first.filePath, in: own) ?? value(rest.filePath, in: buffer)
        return info
    }

    /// The first error printed from `after` (where a rule's match ends), else the first in
    /// the whole message. Searched from the start again only when `Error Domain=` starts
    /// before `after`: no error starts after it (the first search found none), and one that
    /// starts before it starts with that text.
    static func error(in message: UnsafeRawBufferPointer, after: Int) -> ErrorInfo? {
        let after = min(max(after, 0), message.count)
        if let error = error(in: message, from: after) { return error }
        let head = UnsafeRawBufferPointer(rebasing: message[..<min(message.count, after + errorDomainPrefix.count - 1)])
        guard errorDomainPrefix.withUnsafeBytes({ RareByteSearch.firstOffset(of: $0, anchor: errorDomainAnchor, in: head) }) != nil
        else { return nil }
        return error(in: message, from: 0)
    }

    private static let errorDomainAnchor = errorDomainPrefix.withUnsafeBytes { RareByteSearch.anchor(of: $0) }

    /// Where the first `NSUnderlyingError=` from `start` is, with the blank that may stand on
    /// either side of its `=` (`NSUnderlyingError[ ]?=[ ]?`). Looked for by its `U`, which few
    /// bytes of a user info are, not by its `N`, which starts every key's `NS`.
    static func underlyingEntry(in buffer: UnsafeRawBufferPointer, from start: Int) -> Range<Int>? {
        let key = UnsafeRawBufferPointer(start: underlyingKey.utf8Start, count: underlyingKey.utf8CodeUnitCount)
        var from = start
        while from < buffer.count,
              let found = RareByteSearch.firstOffset(of: key, anchor: 2, in: UnsafeRawBufferPointer(rebasing: buffer[from...])) {
            let at = from + found
            var end = at + key.count
            if end < buffer.count, buffer[end] == 0x20 { end += 1 }
            if end < buffer.count, buffer[end] == UInt8(ascii: "=") {
                end += 1
                if end < buffer.count, buffer[end] == 0x20 { end += 1 }
                return at..<end
            }
            from = at + 1
        }
        return nil
    }

    private static let underlyingKey: StaticString = "NSUnderlyingError"

    /// The value of an `NSUnderlyingError=` entry that starts at `start`: a whole error
    /// (`0x… {Error Domain=…}`, iOS 9) or, as iOS 7 prints it, only the address and the
    /// error's description (`0x1e5c3b00 "The operation couldn’t be completed. (Cocoa error
    /// 134302.)"`), whose parenthesis names the domain and code. Read where the value is, so
    /// that an error printed later in the record is never taken for it.
    private static func underlyingError(in buffer: UnsafeRawBufferPointer, from start: Int, depth: Int) -> ErrorInfo? {
        var index = start
        if index + 1 < buffer.count, buffer[index] == UInt8(ascii: "0"), buffer[index + 1] == UInt8(ascii: "x") {
            index += 2
            while index < buffer.count, isHexDigit(buffer[index]) { index += 1 }
        }
        while index < buffer.count, buffer[index] == 0x20 || buffer[index] == UInt8(ascii: "{") || buffer[index] == 0x0A { index += 1 }
        if Bytes.hasPrefix(buffer, index..<buffer.count, errorDomainPrefix) {
            return error(in: buffer, from: index, depth: depth)
        }
        guard index < buffer.count, buffer[index] == UInt8(ascii: "\"") else { return nil }
        var end = index + 1
        while end < buffer.count, buffer[end] != UInt8(ascii: "\""), buffer[end] != 0x0A {
            end += buffer[end] == UInt8(ascii: "\\") ? 2 : 1
        }
        let description = ByteText.string(UnsafeRawBufferPointer(rebasing: buffer[index + 1..<min(end, buffer.count)]))
        return errorNamed(byDescription: description)
    }

    private static let errorDomainPrefix: [UInt8] = Array("Error Domain=".utf8)

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }

    /// The domain and code a localized description names: `… (Cocoa error 134302.)`,
    /// `… (NSPOSIXErrorDomain error 2 - No such file or directory)`.
    static func errorNamed(byDescription description: String) -> ErrorInfo? {
        guard let open = description.utf8.lastIndex(of: UInt8(ascii: "(")) else { return nil }
        let inside = description[description.index(after: open)...]
        let words = inside.split(separator: " ", maxSplits: 3)
        guard words.count >= 3, words[1] == "error" else { return nil }
        let digits = words[2].prefix { $0 == "-" || $0.isNumber }
        guard let code = Int(digits) else { return nil }
        let domain = words[0] == "Cocoa" ? "NSCocoaErrorDomain" : String(words[0])
        return ErrorInfo(domain: domain, code: code, description: description)
    }

    /// Where a user-info value that starts at `start` ends: past its braces, at the comma,
    /// semicolon or line end after it, or at the brace that closes the dictionary around it.
    private static func endOfValue(_ buffer: UnsafeRawBufferPointer, from start: Int) -> Int {
        var depth = 0
        var index = start
        while index < buffer.count {
            switch buffer[index] {
            case UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "}"):
                if depth == 0 { return index }
                depth -= 1
                if depth == 0 { return index + 1 }
            case UInt8(ascii: ","), UInt8(ascii: ";"), 0x0A:
                if depth == 0 { return index }
            default: break
            }
            index += 1
        }
        return buffer.count
    }

    /// The value of the user-info entry whose value starts at `start` (`userInfoEntries`),
    /// quoted or not; nil when there is none, or it is empty or `(null)`.
    private static func value(_ start: Int?, in buffer: UnsafeRawBufferPointer) -> String? {
        guard let start, start <= buffer.count else { return nil }
        var range = userInfoValueRange(in: buffer, at: start)
        // A value cut where the error under it begins keeps the `, ` before it: not its own.
        // Trimmed on the bytes, before the String is made (blanks and commas are whole
        // characters, and `\xNN` escapes start with neither), so that no second String is made.
        while !range.isEmpty, buffer[range.lowerBound] == 0x20 || buffer[range.lowerBound] == UInt8(ascii: ",") {
            range = range.lowerBound + 1..<range.upperBound
        }
        while !range.isEmpty, buffer[range.upperBound - 1] == 0x20 || buffer[range.upperBound - 1] == UInt8(ascii: ",") {
            range = range.lowerBound..<range.upperBound - 1
        }
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[range])
        guard !bytes.isEmpty, !bytes.elementsEqual("(null)".utf8) else { return nil }
        return ByteText.string(bytes)
    }

    /// Where an unquoted user-info value that starts at `start` ends. Entries are separated
    /// by `, ` (`{reason=…, NSFilePath=…}`) or end with `;` (`reason = …;`), but a reason's
    /// own words may hold commas: a comma ends the value only when the next entry's
    /// `Key=` follows it. Braces and parentheses inside the value are its own.
    static func plainValueEnd(_ buffer: UnsafeRawBufferPointer, from start: Int) -> Int {
        var depth = 0
        var index = start
        while index < buffer.count {
            switch buffer[index] {
            case 0x0A, 0x0D: return index
            case UInt8(ascii: "{"), UInt8(ascii: "("): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: ")"):
                if depth == 0 { return index }
                depth -= 1
            case UInt8(ascii: ";"):
                if depth == 0 { return index }
            case UInt8(ascii: ","):
                if depth == 0, keyFollows(buffer, from: index + 1) { return index }
            default: break
            }
            index += 1
        }
        return buffer.count
    }

    /// Whether ` Key=` (or ` Key =`) starts at `start`: the next entry of a user info.
    private static func keyFollows(_ buffer: UnsafeRawBufferPointer, from start: Int) -> Bool {
        var index = start
        while index < buffer.count, buffer[index] == 0x20 { index += 1 }
        let nameStart = index
        while index < buffer.count {
            let byte = buffer[index]
            let isNameByte = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
            guard isNameByte else { break }
            index += 1
        }
        guard index > nameStart else { return false }
        while index < buffer.count, buffer[index] == 0x20 { index += 1 }
        return index < buffer.count && buffer[index] == UInt8(ascii: "=")
    }

    private static func signedDecimal(_ buffer: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int? {
        guard let first = range.first else { return nil }
        if buffer[first] == UInt8(ascii: "-") { return decimal(buffer, first + 1..<range.upperBound).map { -$0 } }
        return decimal(buffer, range)
    }

    /// What a warning or error names besides its words: the first error (from `after`, where
    /// the message's own text ends), and the first transaction log file, URL, peer, ubiquity
    /// root and transaction number in the message, as the facts pattern's matches give them
    /// one after another (`FactScanner`). The pattern starts with no fixed text, so PCRE2 would
    /// try its alternatives at every byte; the scanner looks for each sort's text once, and
    /// again only when the search passes the match it found.
    static func facts(in message: UnsafeRawBufferPointer, after: Int) -> [Field] {
        var fields = FieldList()
        fields.add(error(in: message, after: after))
        // The first of each, in five variables.
        var log, url, peer, root, transaction: String?
        var scanner = FactScanner(message)
        var position = 0
        while log == nil || url == nil || peer == nil || root == nil || transaction == nil,
              position < message.count, let found = scanner.first(from: position) {
            let text = { ByteText.string(UnsafeRawBufferPointer(rebasing: message[found.value])) }
            switch found.sort {
            case .url:
                if url == nil {
                    let text = text()
                    if text.hasSuffix(".cdt") {
                        if log == nil { log = fileName(text) }
                    } else {
                        url = text
                    }
                }
            case .log: if log == nil { log = text() }
            case .peer: if peer == nil { peer = text() }
            case .root: if root == nil { root = text() }
            case .transaction: if transaction == nil { transaction = text() }
            }
            // A URL is not skipped whole: the log file and peer in its path are looked for too.
            position = found.sort == .url ? found.start + 1 : max(found.end, position + 1)
        }
        fields.add("log", log)
        fields.add("url", url)
        fields.add("peer", peer)
        fields.add("ubiquityRoot", root)
        fields.add("transaction", transaction.flatMap { Int($0) })
        return fields.items
    }

    /// Where a matched phrase's text is, as a field shows it: its first line, without the
    /// blanks around it and the colon, comma, full stop or parenthesis it ends with.
    static func phraseRange(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Range<Int> {
        var start = range.lowerBound
        var end = Bytes.find(0x0A, in: bytes, from: start).map { min($0, range.upperBound) } ?? range.upperBound
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, [0x20, 0x09, 0x3A, 0x2C, 0x2E, 0x28].contains(bytes[end - 1]) { end -= 1 }
        return start..<end
    }

    /// A matched group's text; bytes that are not UTF-8 as `\xNN`, as everywhere in the
    /// output (never U+FFFD, which would hide what the log held).
    private static func slice(_ buffer: UnsafeRawBufferPointer, _ range: Range<Int>?) -> String? {
        guard let range else { return nil }
        return ByteText.string(UnsafeRawBufferPointer(rebasing: buffer[range]))
    }

    /// The value of a `name: value` line of a printed description (or `name = value;` of a
    /// printed dictionary): the first such line in `bytes`. Scans bytes: descriptions are long.
    static func field(_ name: String, in bytes: UnsafeRawBufferPointer) -> String? {
        let label = Array(name.utf8)
        var start = 0
        while start < bytes.count {
            let end = Bytes.find(0x0A, in: bytes, from: start) ?? bytes.count
            let line = Bytes.trim(bytes, start..<end)
            start = end + 1
            guard Bytes.hasPrefix(bytes, line, label) else { continue }
            var value = line.lowerBound + label.count..<line.upperBound
            if Bytes.hasPrefix(bytes, value, Extract.colon) {
                value = value.lowerBound + 2..<value.upperBound
            } else if Bytes.hasPrefix(bytes, value, Extract.equals) {
                value = value.lowerBound + 3..<value.upperBound
                if value.upperBound > value.lowerBound, bytes[value.upperBound - 1] == UInt8(ascii: ";") {
                    value = value.lowerBound..<value.upperBound - 1
                }
            } else {
                continue
            }
            let text = ByteText.string(UnsafeRawBufferPointer(rebasing: bytes[value])).trimmingCharacters(in: " \t\"")
            return text.isEmpty ? nil : text
        }
        return nil
    }

    private static let colon = Array(": ".utf8)
    private static let equals = Array(" = ".utf8)

    /// A store by its file's name, from the URL or path a record gives
    /// (`file:///…/Application%20Support/Recipes.sqlite` → `Recipes.sqlite`): how records of
    /// different families that name one store are matched.
    static func storeFileName(_ url: String) -> String {
        fileName(url.removingPercentEncodedSpaces) ?? url
    }

    /// The last path component of a location as descriptions print it
    /// (`<PFUbiquityLocation: 0x15e53120>: /var/…/DAC8E3F1-….1.cdt` → `DAC8E3F1-….1.cdt`).
    static func fileName(_ location: String?) -> String? {
        guard var location else { return nil }
        // An ASCII location (nearly all: paths, URLs) is cut on its bytes: trimmed, its
        // trailing slashes dropped and its last component taken, as the Characters below do
        // for such a text, without the String's index steps.
        if case .some(let name) = location.withUTF8({ asciiFileName($0) }) { return name }
        return fileNameByCharacters(location)
    }

    /// `fileName` read on Characters: any text.
    static func fileNameByCharacters(_ location: String) -> String? {
        var text = location.trimmingCharacters(in: " \t")
        while text.utf8.last == UInt8(ascii: "/") { text.removeLast() }
        // Searched in the UTF-8 view, not backwards over Characters: a `/` byte is always a
        // whole character, so its index splits the text cleanly.
        guard let slash = text.utf8.lastIndex(of: UInt8(ascii: "/")) else { return text.isEmpty ? nil : text }
        let name = String(text[text.index(after: slash)...])
        return name.isEmpty ? nil : name
    }

    /// `fileName` of an ASCII text, read on its bytes (where each byte is a Character);
    /// `.none` when the text is not ASCII, for the String path to read.
    private static func asciiFileName(_ bytes: UnsafeBufferPointer<UInt8>) -> String?? {
        guard ByteText.isASCII(bytes) else { return .none }
        var lower = 0
        var upper = bytes.count
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        while upper > lower, bytes[upper - 1] == UInt8(ascii: "/") { upper -= 1 }
        var start = upper
        while start > lower, bytes[start - 1] != UInt8(ascii: "/") { start -= 1 }
        guard start < upper else { return .some(nil) }
        return .some(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<upper]), as: UTF8.self))
    }

    /// A store as a user finds it: its file name, and a warning when its URL lies inside the
    /// ubiquity container (`Mobile Documents`), where iCloud must not manage a store file.
    static func storeName(_ url: String?) -> String? {
        guard let url, let name = fileName(url) else { return nil }
        return isInsideUbiquityContainer(url) ? "\(name) (inside the ubiquity container, where a store must not be)" : name
    }

    /// Whether a path or URL lies in the ubiquity container: `…/Library/Mobile Documents/…`,
    /// as printed or percent-encoded.
    static func isInsideUbiquityContainer(_ url: String) -> Bool {
        url.firstRange(ofASCII: "/Mobile Documents/") != nil || url.firstRange(ofASCII: "/Mobile%20Documents/") != nil
    }

    /// The transaction log a message names, by its `.cdt` file: from `location` when that is
    /// a log's path, else from the message's `transactionLogLocation:` field, else from the
    /// first `.cdt` file the message names (receipts aside). Never an object's description
    /// (`<PFUbiquityTransactionLog: 0x1d5e3f20>`), which no user can find.
    static func logFileName(_ location: String?, in message: UnsafeRawBufferPointer) -> String? {
        if let name = fileName(location), isLogFile(name) { return name }
        if let name = fileName(field("transactionLogLocation", in: message)), isLogFile(name) { return name }
        var from = 0
        while from < message.count,
              let found = cdtSuffix.withUnsafeBytes({ ByteSearch.firstOffset(of: $0, in: UnsafeRawBufferPointer(rebasing: message[from...])) }) {
            let at = from + found
            from = at + cdtSuffix.count
            // The name runs back to a slash, a blank, a quote or the line's start.
            var start = at
            while start > 0, ![0x2F, 0x20, 0x09, 0x0A, 0x22, 0x27, 0x3A, 0x28].contains(message[start - 1]) { start -= 1 }
            let name = ByteText.string(UnsafeRawBufferPointer(rebasing: message[start..<from]))
            if isLogFile(name) { return name }
        }
        return nil
    }

    private static let cdtSuffix: [UInt8] = Array(".cdt".utf8)

    /// `DAC8E3F1-….1.cdt`: a `.cdt` file that is not a peer receipt and not a description.
    private static func isLogFile(_ name: String) -> Bool {
        name.hasSuffix(".cdt") && !name.hasPrefix("<") && !name.hasPrefix("receipt.") && name.utf8.count > 4
    }

    /// A knowledge vector without the object address: `<PFUbiquityKnowledgeVector: 0x1e5c>:{a:1, b:2}` → `{a:1, b:2}`.
    static func knowledgeVector(_ text: String?) -> String? {
        guard var text else { return nil }
        // An ASCII text (nearly all) is cut on its bytes, as below: trimmed, the object's
        // description dropped, with no String trimmed or cut on Characters.
        if case .some(let vector) = text.withUTF8({ asciiKnowledgeVector($0) }) { return vector }
        return knowledgeVectorByCharacters(text)
    }

    /// `knowledgeVector` read on Characters: any text.
    static func knowledgeVectorByCharacters(_ text: String) -> String? {
        var text = text.trimmingCharacters(in: " \t")
        if text.hasPrefix("<"), let close = text.utf8.firstIndex(of: UInt8(ascii: ">")) {
            text = String(text[text.index(after: close)...])
            if text.hasPrefix(":") { text.removeFirst() }
            text = text.trimmingCharacters(in: " ")
        }
        return text.isEmpty ? nil : text
    }

    /// `knowledgeVector` of an ASCII text without carriage returns (each byte a Character),
    /// read on its bytes; `.none` for another text, which the String path reads.
    private static func asciiKnowledgeVector(_ bytes: UnsafeBufferPointer<UInt8>) -> String?? {
        guard ByteText.isASCII(bytes), !bytes.contains(0x0D) else { return .none }
        var lower = 0
        var upper = bytes.count
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        if lower < upper, bytes[lower] == UInt8(ascii: "<"),
           let close = UnsafeBufferPointer(rebasing: bytes[lower..<upper]).firstIndex(of: UInt8(ascii: ">")) {
            lower += close + 1
            if lower < upper, bytes[lower] == UInt8(ascii: ":") { lower += 1 }
            while lower < upper, bytes[lower] == 0x20 { lower += 1 }
            while upper > lower, bytes[upper - 1] == 0x20 { upper -= 1 }
        }
        guard lower < upper else { return .some(nil) }
        return .some(String(decoding: UnsafeBufferPointer(rebasing: bytes[lower..<upper]), as: UTF8.self))
    }
}
