// The byte-level fact readers (`Extract.errorMatch`, `Extract.userInfoEntries`,
// `Extract.FactScanner`) find what the PCRE2 patterns they replaced found: `PatternFacts` below
// is the pattern-based reading as it was, and every rule's sample, every record of the
// fixtures and thousands of random texts made of the pieces those patterns look for read the
// same both ways, from every place a search can start.
import Foundation
import PCRE2
import Testing
import TestSupport
@testable import UbiquityLogKit

/// The facts and errors as PCRE2 read them before the byte readers (the reference).
enum PatternFacts {
    static let errorRegex = try! Regex(
        #"Error Domain=(?<domain>[^\s]+) Code=(?<code>-?\d+)(?: "(?<description>(?:[^"\\\n]|\\.)*)")?"#)
    static let reasonRegex = try! Regex(
        #"\b(?:reason|NSLocalizedFailureReason)[ ]?=[ ]?(?:"(?<quoted>(?:[^"\\\n]|\\.)*)"|(?<plain>))"#)
    static let describedRegex = try! Regex(
        #"\b(?:NSLocalizedDescription|NSDescription|NSUnderlyingException)[ ]?=[ ]?(?:"(?<quoted>(?:[^"\\\n]|\\.)*)"|(?<plain>))"#)
    static let filePathRegex = try! Regex(
        #"\b(?:NSFilePath|NSURL|NSFileURL|NSStoreURL|NSDestinationFilePath|NSSourceFilePathErrorKey)[ ]?=[ ]?(?:"(?<quoted>(?:[^"\\\n]|\\.)*)"|(?<plain>))"#)
    static let factsRegex = try! Regex(
        #"(?<url>file://[^\s)"';,}]+)|(?<log>[\w-]+\.\d+\.cdt)\b|(?<![\w~])(?<peer>[\w.-]+~[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})\b|ubiquityRootLocation: (?:<[^>\n]{1,80}>: )?(?<root>[^\n]+)|transaction(?:Number| number): (?<transaction>\d+)"#)

    final class Matchers {
        let error = Matcher(errorRegex)
        let reason = Matcher(reasonRegex)
        let described = Matcher(describedRegex)
        let filePath = Matcher(filePathRegex)
        let facts = Matcher(factsRegex)
    }

    static func group(_ matcher: Matcher, _ regex: Regex, _ name: String) -> Range<Int>? {
        regex.groupNumbers[name].flatMap { matcher.range(ofFirstOf: $0) }
    }

    static func slice(_ buffer: UnsafeRawBufferPointer, _ range: Range<Int>?) -> String? {
        range.map { ByteText.string(UnsafeRawBufferPointer(rebasing: buffer[$0])) }
    }

    /// The error pattern's first match from `start`.
    static func errorMatch(in buffer: UnsafeRawBufferPointer, from start: Int, _ m: Matchers) -> Extract.ErrorMatch? {
        guard (try? m.error.matches(buffer, from: start)) == true, let whole = m.error.range(ofGroup: 0),
              let domain = group(m.error, errorRegex, "domain"), let code = group(m.error, errorRegex, "code") else { return nil }
        return Extract.ErrorMatch(domain: domain, code: code, description: group(m.error, errorRegex, "description"), end: whole.upperBound)
    }

    /// Where a user-info pattern's first match from `start` has its value start.
    static func entry(_ matcher: Matcher, _ regex: Regex, in buffer: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard start <= buffer.count, (try? matcher.matches(buffer, from: start)) == true else { return nil }
        return (group(matcher, regex, "quoted").map { $0.lowerBound - 1 } ?? group(matcher, regex, "plain")?.lowerBound)
    }

    static func value(_ matcher: Matcher, _ regex: Regex, in buffer: UnsafeRawBufferPointer, from start: Int) -> String? {
        guard start <= buffer.count, (try? matcher.matches(buffer, from: start)) == true else { return nil }
        guard var range = group(matcher, regex, "quoted")
                ?? group(matcher, regex, "plain").map({ $0.lowerBound..<Extract.plainValueEnd(buffer, from: $0.lowerBound) })
        else { return nil }
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

    static func signedDecimal(_ buffer: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int? {
        guard let first = range.first else { return nil }
        if buffer[first] == UInt8(ascii: "-") { return decimal(buffer, first + 1..<range.upperBound).map { -$0 } }
        return decimal(buffer, range)
    }

    static func endOfValue(_ buffer: UnsafeRawBufferPointer, from start: Int) -> Int {
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

    static func error(in buffer: UnsafeRawBufferPointer, from start: Int, _ m: Matchers, depth: Int = 0) -> ErrorInfo? {
        guard let match = errorMatch(in: buffer, from: start, m), let domain = slice(buffer, match.domain),
              let code = signedDecimal(buffer, match.code) else { return nil }
        var info = ErrorInfo(domain: domain, code: code, description: slice(buffer, match.description))
        let after = match.end
        var end = buffer.count
        var resume = buffer.count
        if depth < 3, let at = Extract.underlyingEntry(in: buffer, from: after) {
            end = at.lowerBound
            resume = endOfValue(buffer, from: at.upperBound)
            if let inner = underlyingError(in: buffer, from: at.upperBound, m, depth: depth + 1) { info.underlying = [inner] }
        }
        let own = UnsafeRawBufferPointer(rebasing: buffer[..<end])
        info.reason = value(m.reason, reasonRegex, in: own, from: after) ?? value(m.reason, reasonRegex, in: buffer, from: resume)
            ?? value(m.described, describedRegex, in: own, from: after) ?? value(m.described, describedRegex, in: buffer, from: resume)
        info.filePath = value(m.filePath, filePathRegex, in: own, from: after) ?? value(m.filePath, filePathRegex, in: buffer, from: resume)
        return info
    }

    static func underlyingError(in buffer: UnsafeRawBufferPointer, from start: Int, _ m: Matchers, depth: Int) -> ErrorInfo? {
        var index = start
        if index + 1 < buffer.count, buffer[index] == UInt8(ascii: "0"), buffer[index + 1] == UInt8(ascii: "x") {
            index += 2
            while index < buffer.count, buffer[index].isHexDigitForTest { index += 1 }
        }
        while index < buffer.count, buffer[index] == 0x20 || buffer[index] == UInt8(ascii: "{") || buffer[index] == 0x0A { index += 1 }
        if Bytes.hasPrefix(buffer, index..<buffer.count, Array("Error Domain=".utf8)) {
            return error(in: buffer, from: index, m, depth: depth)
        }
        guard index < buffer.count, buffer[index] == UInt8(ascii: "\"") else { return nil }
        var end = index + 1
        while end < buffer.count, buffer[end] != UInt8(ascii: "\""), buffer[end] != 0x0A {
            end += buffer[end] == UInt8(ascii: "\\") ? 2 : 1
        }
        return Extract.errorNamed(byDescription: ByteText.string(UnsafeRawBufferPointer(rebasing: buffer[index + 1..<min(end, buffer.count)])))
    }

    static func error(in message: UnsafeRawBufferPointer, after: Int, _ m: Matchers) -> ErrorInfo? {
        let after = min(max(after, 0), message.count)
        return error(in: message, from: after, m) ?? error(in: message, from: 0, m)
    }

    /// The facts pattern's first match from `position`.
    static func factMatch(in message: UnsafeRawBufferPointer, from position: Int, _ m: Matchers) -> Extract.FactMatch? {
        guard (try? m.facts.matches(message, from: position)) == true, let whole = m.facts.range(ofGroup: 0) else { return nil }
        for sort in Extract.FactSort.allCases {
            let name = switch sort {
            case .url: "url"
            case .log: "log"
            case .peer: "peer"
            case .root: "root"
            case .transaction: "transaction"
            }
            if let range = group(m.facts, factsRegex, name) {
                return Extract.FactMatch(sort: sort, start: whole.lowerBound, end: whole.upperBound, value: range)
            }
        }
        return nil
    }

    static func facts(in message: UnsafeRawBufferPointer, after: Int, _ m: Matchers) -> [Field] {
        var fields = FieldList()
        fields.add(error(in: message, after: after, m))
        var log, url, peer, root, transaction: String?
        var position = 0
        while log == nil || url == nil || peer == nil || root == nil || transaction == nil,
              position < message.count, let found = factMatch(in: message, from: position, m) {
            let text = slice(message, found.value)
            switch found.sort {
            case .url:
                if url == nil, let text {
                    if text.hasSuffix(".cdt") {
                        if log == nil { log = Extract.fileName(text) }
                    } else {
                        url = text
                    }
                }
            case .log: if log == nil { log = text }
            case .peer: if peer == nil { peer = text }
            case .root: if root == nil { root = text }
            case .transaction: if transaction == nil { transaction = text }
            }
            position = found.sort == .url ? found.start + 1 : max(found.end, position + 1)
        }
        fields.add("log", log)
        fields.add("url", url)
        fields.add("peer", peer)
        fields.add("ubiquityRoot", root)
        fields.add("transaction", transaction.flatMap { Int($0) })
        return fields.items
    }
}

extension UInt8 {
    fileprivate var isHexDigitForTest: Bool {
        (self >= 0x30 && self <= 0x39) || (self >= 0x41 && self <= 0x46) || (self >= 0x61 && self <= 0x66)
    }
}

/// A small deterministic generator: the same texts on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct FactReaderTests {
    /// Pieces of the texts the patterns look for, and of what stands around them.
    static let pieces: [[UInt8]] = [
        "Error Domain=", "NSCocoaErrorDomain", "CKErrorDomain", " Code=", "Code=", "-", "134", "2", "99999999999999999999", " \"",
        "\"", "\\\"", "\\", "\\\n", "\n", "\r", "\t", " ", "  ", "\u{0B}", "UserInfo={", "UserInfo=0x1e5c {", "{", "}", ",", ", ", ";",
        "=", " = ", "reason", "reason=", "reason =", " reason= ", "xreason=", "_reason=", "NSLocalizedFailureReason=",
        "NSLocalizedDescription=", "NSDescription = ", "NSUnderlyingException=", "NSFilePath=", "NSURL=", "XNSURL=", "NSFileURL=", "NSStoreURL =",
        "NSDestinationFilePath=", "NSSourceFilePathErrorKey=", "NSUnderlyingError=", "NSUnderlyingError = 0x2 ", "(null)", "Disk full",
        "The operation couldn’t be completed. (Cocoa error 134302.)", "file://", "file:///var/mobile/x", "/var/a b/", "x.1.cdt",
        ".cdt", ".12.cdt", "DAC8E3F1-2B4A", "-", ".", "_", "~", "mobile~", "6F2C0E8A-1B7D-4C55-9A34-2B8E1D0C7F11", "6F2C0E8A-1B7D-4C55-9A34-2B8E1D0C7F1",
        "ubiquityRootLocation: ", "<PFUbiquityLocation: 0x15e53120>: ", "<x>: ", "<", ">", ": ", "transactionNumber: ", "transaction number: ",
        "transactionNumber:", "42", "é", "ü", "a", "Z", "0", "9", "(", ")", "'",
    ].map { Array($0.utf8) } + [[0xFF], [0xC3], [0x85], [0xA0]]

    static func randomText(_ generator: inout SplitMix64) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<Int.random(in: 1...40, using: &generator) {
            bytes += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
        }
        // Now and then a long run, past the description's 80 bytes and the like.
        if Int.random(in: 0..<8, using: &generator) == 0 {
            bytes.insert(contentsOf: Array(repeating: UInt8(ascii: "a"), count: Int.random(in: 60...120, using: &generator)),
                         at: Int.random(in: 0...bytes.count, using: &generator))
        }
        return bytes
    }

    /// Every rule's sample and every record of the fixtures, each as its message.
    static func realTexts() throws -> [[UInt8]] {
        let catalog = try Catalog.standard()
        var texts = catalog.rules.flatMap(\.samples)
        let root = Binary.packageRoot.appendingPathComponent("fixtures")
        for name in try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() where name.hasSuffix(".log") {
            texts.append(String(decoding: try Data(contentsOf: root.appendingPathComponent(name)), as: UTF8.self))
        }
        return try texts.flatMap { try assemble($0).map { $0.text.withUnsafeBytes { Array($0) } } }
    }

    static func compare(_ text: [UInt8], _ m: PatternFacts.Matchers, starts: [Int]) {
        text.withUnsafeBytes { buffer in
            let shown = String(decoding: text, as: UTF8.self).debugDescription
            for start in starts where start <= buffer.count {
                expectEqual(Extract.errorMatch(in: buffer, from: start), PatternFacts.errorMatch(in: buffer, from: start, m), "\(shown) from \(start)")
                let entries = Extract.userInfoEntries(in: buffer, from: start)
                expectEqual(entries.reason, PatternFacts.entry(m.reason, PatternFacts.reasonRegex, in: buffer, from: start), "\(shown) from \(start)")
                expectEqual(entries.described, PatternFacts.entry(m.described, PatternFacts.describedRegex, in: buffer, from: start), "\(shown) from \(start)")
                expectEqual(entries.filePath, PatternFacts.entry(m.filePath, PatternFacts.filePathRegex, in: buffer, from: start), "\(shown) from \(start)")
                var scanner = Extract.FactScanner(buffer)
                expectEqual(scanner.first(from: start), PatternFacts.factMatch(in: buffer, from: start, m), "\(shown) from \(start)")
                expectEqual(Extract.error(in: buffer, from: start), PatternFacts.error(in: buffer, from: start, m), "\(shown) from \(start)")
                expectEqual(Extract.facts(in: buffer, after: start), PatternFacts.facts(in: buffer, after: start, m), "\(shown) after \(start)")
            }
            // The scanner kept from place to place gives what a search from each place gives.
            var scanner = Extract.FactScanner(buffer)
            var position = 0
            while position < buffer.count, let found = PatternFacts.factMatch(in: buffer, from: position, m) {
                expectEqual(scanner.first(from: position), found, "\(shown) from \(position)")
                position = found.start + 1
            }
            if position < buffer.count { expect(scanner.first(from: position) == nil, "\(shown) from \(position)") }
        }
    }

    @Test func theReadersFindWhatThePatternsFoundInRealRecords() throws {
        let m = PatternFacts.Matchers()
        for text in try Self.realTexts() {
            var starts = [0, text.count]
            // From every place a search or a rule's match can end: a few in each record.
            for stride in [7, 31] { starts += Swift.stride(from: 1, to: text.count, by: stride).prefix(40) }
            Self.compare(text, m, starts: starts)
        }
    }

    @Test func theReadersFindWhatThePatternsFoundInRandomTexts() {
        let m = PatternFacts.Matchers()
        var generator = SplitMix64(state: 30)
        for _ in 0..<4_000 {
            let text = Self.randomText(&generator)
            Self.compare(text, m, starts: Array(0...min(text.count, 12)) + [Int.random(in: 0...text.count, using: &generator)])
        }
    }

    /// Cases written out: a peer after a name that starts past a `~`, a root whose description
    /// leaves nothing after it, an entry's key past the start of a search.
    @Test func edgeCasesReadAsThePatternsReadThem() {
        let m = PatternFacts.Matchers()
        let texts = [
            "a~b.c~6F2C0E8A-1B7D-4C55-9A34-2B8E1D0C7F11 x", "x.y-mobile~6F2C0E8A-1B7D-4C55-9A34-2B8E1D0C7F11",
            "ubiquityRootLocation: <PFUbiquityLocation: 0x1>: \nnext", "ubiquityRootLocation: <x>: /var/root",
            "ubiquityRootLocation: \nubiquityRootLocation: /a", "Error Domain=D Code=1 \"a\\\"b\" UserInfo={reason=x, NSFilePath=/p}",
            "Error Domain=D\tCode=1 Error Domain=E Code=-2", "a.1.cdt~6F2C0E8A-1B7D-4C55-9A34-2B8E1D0C7F11",
            "abc.12.34.cdt", "file://) file://x", "transaction number: x transactionNumber: 12",
            "Error Domain=NSCocoaErrorDomain Code=134302 \"x\" UserInfo={NSUnderlyingError=0x1 {Error Domain=NSPOSIXErrorDomain Code=2 \"No such file\" UserInfo={NSFilePath=/inner}}, reason=outer}",
        ]
        for text in texts {
            let bytes = Array(text.utf8)
            Self.compare(bytes, m, starts: Array(0...bytes.count))
        }
    }
}

/// `CloudKitErrors.report(in:)` reads a message where it stands in a larger buffer (a record
/// inside its batch), no longer copied into an array of its own: on every mirroring rule's
/// sample, set between bytes that hold errors of their own, the report is the one of the text
/// alone, and of the text as a String.
@Suite struct CloudKitReportInPlaceTests {
    @Test func aReportReadInPlaceIsTheReportOfTheTextAlone() {
        let around = Array("Error Domain=NSCocoaErrorDomain Code=134400 <CKError 0x1: \"Quota Exceeded\" (25/2035); \"x\"> 7 \"Batch Request Failed\" CKError's omited ".utf8)
        var reports = 0
        for rule in CloudKitRules.all {
            for sample in rule.samples {
                let text = Array(sample.utf8)
                let whole = around + text + around
                let inPlace = whole.withUnsafeBytes { CloudKitErrors.report(in: UnsafeRawBufferPointer(rebasing: $0[around.count..<around.count + text.count])) }
                let alone = text.withUnsafeBytes { CloudKitErrors.report(in: $0) }
                expectEqual(inPlace, alone, "\(sample)")
                expectEqual(alone, CloudKitErrors.report(in: sample), "\(sample)")
                if !alone.isEmpty { reports += 1 }
            }
        }
        expect(reports > 10, "the samples hold failures of many sorts")
        // Bytes that are not UTF-8 are read as their text shows them.
        let invalid: [UInt8] = Array("<CKError 0x1: \"Zone Not Found\" (26/2036); \"Zone '".utf8) + [0xFF] + Array("' does not exist\">".utf8)
        expectEqual(invalid.withUnsafeBytes { CloudKitErrors.report(in: $0) }, CloudKitErrors.report(in: ByteText.string(invalid)))
    }
}
