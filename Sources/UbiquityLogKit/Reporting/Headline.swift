// One line per event, in words: what the timeline prints and findings keep.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

public enum Headline {
    public static func of(_ item: ClassifiedRecord) -> String {
        let record = item.record
        switch item.event {
        case .storeLoadStarted(let location, let url):
            return "Loading the \(location.rawValue) store" + (Extract.storeName(url).map { " \($0)" } ?? "")
        case .storeLoadSucceeded(let location):
            return "Loaded the \(location.rawValue) store"
        case .storeLoadFailed(let location, let error):
            return "Failed to load the \(location.rawValue) store" + (error.map { ": \($0.oneLine)" } ?? "")
        case .storeAddFailed(_, let url, let error):
            let name = Extract.storeName(url).map { " \($0)" } ?? ""
            return "Core Data could not add the store\(name)" + (error.map { ": \($0.oneLine)" } ?? "")
        case .usingLocalStorage(let local, _, let store):
            let which = local ? "the local fallback store is active" : "the iCloud store is active"
            return "Using local storage: \(local ? 1 : 0), \(which)" + (store.map { " (\($0))" } ?? "")
        case .objectsExported(let changes):
            return "Exporting \(changes.count) change\(changes.count == 1 ? "" : "s") saved to store" + tally(changes)
        case .transactionLogWritten(let transaction, let log):
            return "Wrote transaction \(transaction.map(String.init) ?? "?") to log: \(log ?? "?")"
        case .storeWillCommit(let transaction):
            return "Store committing transaction: \(transaction.map(String.init) ?? "?")"
        case .relationshipResolved(let relationship, let value):
            return "Relationship \(relationship) => \(value)"
        case .changesImported(let changes):
            return "Imported \(changes.count) change\(changes.count == 1 ? "" : "s") into store" + tally(changes)
        case .logAlreadyImported(let log):
            return "Already imported: \(log ?? "?")"
        case .logAheadOfPeer(let logScore, let localScore, let reason):
            return "Not processing KV \(logScore ?? "?") after KV \(localScore ?? "?")" + (reason.map { ": \($0)" } ?? "")
        case .incompatibleOperationSkipped(let score, let log, let transaction):
            return "Skipping KV \(score ?? "?"), from log \(log ?? "?"), transaction \(transaction.map(String.init) ?? "?")"
        case .importFailed(let log, let error):
            return "Import failed for log \(log ?? "?")" + (error.map { ": \($0.oneLine)" } ?? "")
        case .baselineRollResponseFailed(let error):
            return "Baseline roll failed" + (error.map { ": \($0.oneLine)" } ?? "")
        case .unhandled(let limitHit):
            let label = limitHit ? "[unhandled: a rule hit the match limit] " : "[unhandled] "
            let message = unhandledMessage(record)
            guard record.hasMoreLines else { return label + message }
            // `[...]` stands for the lines not shown; an error among them is shown, whole.
            let error = message.firstRange(ofASCII: "Error Domain=") == nil
                ? record.text.withUnsafeBytes { Extract.error(in: $0, from: 0) } : nil
            return label + message + " [...]" + (error.map { " \($0.oneLine)" } ?? "")
        case .app:
            return "[app] " + firstLine(record) + (record.hasMoreLines ? " [...]" : "")
        case .cloudCorruptionDetected:
            return matchedLine(item)
        case .message(let kind, let fields):
            return composed(kind, fields, item) ?? matchedLine(item)
        }
    }

    /// The headline of a message event whose matched line does not say enough by itself:
    /// one that carries an error (shown whole), or whose facts name what a reader looks
    /// for (the peer whose logs are skipped, the stray file). Nil for the others.
    private static func composed(_ kind: EventKind, _ fields: [Field], _ item: ClassifiedRecord) -> String? {
        // A rule's own sentence for its record (a mirroring failure told by its cause).
        if let said = text(fields, "causeText") { return said }
        if kind == .peerModelMismatch {
            let peer = text(fields, "peer") ?? "?"
            let log = text(fields, "log").map { " (\($0))" } ?? ""
            return "Skipping the logs of peer \(peer): written with another model version, never imported here\(log)"
        }
        if kind == .containerStrayFile {
            let file = text(fields, "file") ?? "?"
            let confused = text(fields, "confusedBy").map { ", confused by \($0)" } ?? ""
            return "Cannot place \(file) in the ubiquity content folder\(confused): \(text(fields, "url") ?? "?")"
        }
        let carriesError = fields.contains { $0.name == "error" }
        guard kind.severity >= .warning || carriesError else { return nil }
        var line = matchedLine(item)
        if carriesError, let error = item.event.error { line = withRootCause(line, error) }
        let log = text(fields, "log")
        line = namingLogs(line, log: log)
        // The log a continuation line names is the fact a reader looks for: said when the
        // matched line does not say it.
        if let log, !line.containsText(log) { line += " (log \(log))" }
        return line
    }

    private static let logObject = Array("<PFUbiquityTransactionLog: 0x".utf8)

    /// Whether a line prints a transaction log as its object (searched as bytes: most
    /// warnings do not, and they are then written as they stand).
    private static func printsLogObject(_ line: RecordText) -> Bool {
        line.withUnsafeBytes { bytes in
            logObject.withUnsafeBytes { ByteSearch.firstOffset(of: $0, in: bytes) } != nil
        }
    }

    /// A transaction log printed as its object (`<PFUbiquityTransactionLog: 0x1d5e3f20>`)
    /// named by its file instead, or as "a transaction log" when the record names no file.
    static func namingLogs(_ line: String, log: String?) -> String {
        // Most lines print no log object: they are given back as they are, not copied into a
        // String built of their pieces, which is costly and made for every warning.
        let printsObject = line.utf8.withContiguousStorageIfAvailable { bytes in
            logObject.withUnsafeBytes { ByteSearch.firstOffset(of: $0, in: UnsafeRawBufferPointer(bytes)) } != nil
        }
        if printsObject == false { return line }
        var text = Substring(line)
        var result = ""
        while let start = text.firstRange(ofASCII: "<PFUbiquityTransactionLog: 0x"),
              let close = text[start.upperBound...].firstIndex(of: ">") {
            result += text[..<start.lowerBound]
            result += log ?? "a transaction log"
            text = text[text.index(after: close)...]
        }
        return result + text
    }

    private static func text(_ fields: [Field], _ name: String) -> String? {
        fields.first(where: { $0.name == name })?.value.text
    }

    /// A message's words and then its error, whole (`words: domain code: reason; file: …;
    /// underlying: …`): the error's printed form is cut from the words, for it often runs
    /// on over lines the headline does not show, and its reason is what a reader needs.
    static func withRootCause(_ line: String, _ error: ErrorInfo) -> String {
        var words = Substring(line)
        if let printed = line.firstRange(ofASCII: "Error Domain=") { words = line[..<printed.lowerBound] }
        words = trimmingTrailingPunctuation(words)
        var text = String(words)
        if !words.isEmpty { text += ": " }
        error.appendOneLine(to: &text)
        return text
    }

    /// `words` without the blanks, colons, commas, opening parentheses and dashes it ends with.
    /// Trimmed as bytes: `last` and `removeLast` on a Substring each find a Character's
    /// bounds. A byte of these is a Character of its own unless a character before it takes it
    /// in (a prepended mark, never ASCII): where the byte before the trimmed ones is not
    /// ASCII, the Characters are trimmed instead.
    private static func trimmingTrailingPunctuation(_ words: Substring) -> Substring {
        func isTrimmed(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x3A || byte == 0x2C || byte == 0x28 || byte == 0x2D || byte == 0x09
        }
        let utf8 = words.utf8
        var end = utf8.endIndex
        while end > utf8.startIndex, isTrimmed(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        if end == utf8.endIndex { return words }
        if end == utf8.startIndex || utf8[utf8.index(before: end)] < 0x80 { return words[..<end] }
        var characters = words
        while let last = characters.last, last == " " || last == ":" || last == "," || last == "(" || last == "-" || last == "\t" {
            characters.removeLast()
        }
        return characters
    }

    /// `of(item)` as UTF-8, for `use`: a message's matched line straight from the record's
    /// bytes when it stands as it is (most of the timeline's lines), else `of(item)`'s text.
    static func withUTF8<Result>(_ item: ClassifiedRecord, _ use: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch item.event {
        case .cloudCorruptionDetected:
            if let plain = plainMatchedLine(item) { return plain.withUnsafeBufferPointer(use) }
        case .message(let kind, let fields):
            // Events that carry an error, name a peer or a stray file, or print a log as its
            // object are composed (`of`); the others, most lines, stand as they are.
            if kind != .peerModelMismatch, kind != .containerStrayFile, !fields.contains(where: { $0.name == "error" || $0.name == "causeText" }),
               let plain = plainMatchedLine(item),
               kind.severity < .warning || (!printsLogObject(plain) && !fields.contains(where: { $0.name == "log" })) {
                return plain.withUnsafeBufferPointer(use)
            }
        default:
            break
        }
        var text = of(item)
        return text.withUTF8(use)
    }

    /// `(+1 *2 -0)` for a list of object changes.
    private static func tally(_ changes: [ObjectChange]) -> String {
        guard !changes.isEmpty else { return "" }
        let counts = ObjectChange.Operation.allCases.map { operation in
            "\(operation.symbol)\(changes.filter { $0.operation == operation }.count)"
        }
        return " (" + counts.joined(separator: " ") + ")"
    }

    /// An unrecognised record as a reader can look it up: the logging method, when printed,
    /// and the message's words (`messageWords`).
    static func unhandledMessage(_ record: Record) -> String {
        let words = messageWords(record)
        guard let method = record.string(.method), !method.isEmpty else { return words }
        return words.isEmpty ? method : "\(method): \(words)"
    }

    /// The first words of a message, past the logged object's description that earlier OS
    /// versions print before the text (`<Class: 0x…>`, its `: location` and its tab-indented
    /// field lines): on the description's own line when words follow it there, else on the
    /// first line after it. The first line itself when the message is nothing but a description.
    static func messageWords(_ record: Record) -> String {
        let lines = record.body.split(separator: 0x0A, maxSplits: 40)
        for line in lines {
            let text = ByteText.string(line).trimmingCharacters(in: " \t\r")
            guard !text.isEmpty, line.first != UInt8(ascii: "\t") else { continue }
            guard text.hasPrefix("<") else { return text }
            if let words = afterDescription(text) { return words }
        }
        return firstLine(record)
    }

    /// The words after a leading `<Class: 0x…>` (and the `(N)`, `:` and location or path that
    /// descriptions print after it), or nil when nothing but the description is on the line.
    private static func afterDescription(_ line: String) -> String? {
        guard let close = line.firstIndex(of: ">") else { return nil }
        var rest = Substring(line[line.index(after: close)...])
        if rest.hasPrefix("("), let end = rest.firstIndex(of: ")") { rest = rest[rest.index(after: end)...] }
        while let first = rest.first, first == ":" || first == " " { rest.removeFirst() }
        // `<_PFUbiquityRecordsImporter: 0x…>: /private/var/…/Logs - mobile.6F2C…` (iOS 6): a path is the description's.
        if rest.isEmpty || rest.hasPrefix("/") || rest.hasPrefix("file://") || rest.hasPrefix("<") { return nil }
        return String(rest)
    }

    private static func firstLine(_ record: Record) -> String {
        record.firstBodyText.trimmingCharacters(in: " \t")
    }

    /// The line of the record the rule matched on, from the match to the line's end.
    /// UbiquityStoreManager's errors print their message inside an NSError; that message is
    /// what is shown, with the cause after it.
    static func matchedLine(_ item: ClassifiedRecord) -> String {
        // The line as it stands (valid UTF-8, nothing to rewrite) read from the bytes once:
        // decoding, trimming and copying it again would make the same text.
        if let plain = plainMatchedLine(item) { return plain.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) } }
        let text = item.record.text
        guard let start = item.classification.matchStart, start < text.count else { return firstLine(item.record) }
        let end = text[start...].firstIndex(of: 0x0A) ?? text.endIndex
        let line = ByteText.string(text[start..<end]).trimmingCharacters(in: " \t")
        return storeManagerErrorMessage(line) ?? line
    }

    /// `matchedLine`'s bytes when they are its text as they stand (valid UTF-8, not a store
    /// manager's error to rewrite), else nil: JSON Lines writes them without making a String.
    static func plainMatchedLine(_ item: ClassifiedRecord) -> RecordText? {
        matchedLineBytes(item, checkingUTF8: true)
    }

    /// `plainMatchedLine`, or without `checkingUTF8` the bytes it would be if they are UTF-8:
    /// JSON Lines escapes them and checks them only where a byte is not ASCII. With no match in
    /// the text (the app's lines), the message's first line (`firstLine`), which is not rewritten.
    static func matchedLineBytes(_ item: ClassifiedRecord, checkingUTF8: Bool) -> RecordText? {
        let text = item.record.text
        let matched = item.classification.matchStart.map { $0 < text.count } ?? false
        let start = matched ? item.classification.matchStart ?? 0 : min(item.record.bodyStart, text.count)
        // On the bytes (memchr for the line's end): every JSON line and most timeline lines
        // come here, and the Array's generic search and slices are too costly for that.
        let line = text.withUnsafeBytes { bytes -> Range<Int>? in
            var end = ByteSearch.firstOffset(of: 0x0A, in: bytes, from: start) ?? bytes.count
            var first = start
            while first < end, bytes[first] == UInt8(ascii: " ") || bytes[first] == UInt8(ascii: "\t") { first += 1 }
            while end > first, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
            // `Bytes.hasPrefix`, not `starts(with:)` on the literal's UTF-8 view: the generic
            // walk through a String's view is too costly for every record.
            guard !matched || !Bytes.hasPrefix(bytes, first..<end, storeManagerError),
                  !checkingUTF8 || ByteText.isValidUTF8(UnsafeRawBufferPointer(rebasing: bytes[first..<end])) else { return nil }
            return first..<end
        }
        return line.map { text[$0] }
    }

    private static let storeManagerError = Array("Error (cause:".utf8)

    /// `Error (cause:C): Error Domain=… {NSLocalizedFailureReason=MESSAGE}` → `MESSAGE (cause: C)`.
    private static func storeManagerErrorMessage(_ line: String) -> String? {
        guard line.hasPrefix("Error (cause:"), let causeEnd = line.firstRange(ofASCII: "): "),
              let reason = line.firstRange(ofASCII: "NSLocalizedFailureReason=") else { return nil }
        let cause = line[line.index(line.startIndex, offsetBy: 13)..<causeEnd.lowerBound]
        let message = line[reason.upperBound...].prefix(while: { $0 != "}" && $0 != ";" })
        return "\(message) (cause: \(cause))"
    }
}
