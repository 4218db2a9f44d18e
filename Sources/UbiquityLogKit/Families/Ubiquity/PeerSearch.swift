/// `peer(inPath:)` and `peer(holding:in:)` on bytes, not by String's splits and searches by
/// Characters (`isHexDigit` on each): the import rule asks for every import record's path,
/// and a record's scan for a new log reads all of it. On ASCII text without a lone carriage
/// return, each byte is a Character, but for `\r\n`, which is one Character (no split at its
/// `\n`, neither `/`, `~`, `.`, `-` nor a hex digit): so the bytes give what the Characters
/// give. Other text takes the Character path.
enum PeerSearch {
    /// ASCII, so that each byte is a Character but for `\r\n` pairs.
    static func isPlainASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { ByteText.isASCII(bytes) }

    /// Where `needle` first starts in `bytes`.
    static func first(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        return needle.withUnsafeBytes { ByteSearch.firstOffset(of: $0, in: UnsafeRawBufferPointer(bytes)) }
    }

    /// The last non-empty line of `bytes[..<end]`, as `split(separator: "\n").last` gives it
    /// (a `\n` after `\r` ends no line: the pair is one Character).
    static func lastLine(in bytes: UnsafeBufferPointer<UInt8>, before end: Int) -> Range<Int> {
        var end = end
        while end > 0 {
            var start = end
            while start > 0, !(bytes[start - 1] == 0x0A && !(start >= 2 && bytes[start - 2] == 0x0D)) { start -= 1 }
            if start < end { return start..<end }
            end = start - 1
        }
        return 0..<0
    }

    /// The last `/`-separated component of `range` that is a peer ID (`isPeerID`).
    static func peer(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        var end = range.upperBound
        while end > range.lowerBound {
            var start = end
            while start > range.lowerBound, bytes[start - 1] != UInt8(ascii: "/") { start -= 1 }
            if start < end, isPeerID(bytes, start..<end) { return String(decoding: bytes[start..<end], as: UTF8.self) }
            end = start - 1
        }
        return nil
    }

    /// `TransactionLogTracker.isPeerID` on ASCII bytes.
    static func isPeerID(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard let separator = range.first(where: { bytes[$0] == UInt8(ascii: "~") || bytes[$0] == UInt8(ascii: ".") }),
              separator > range.lowerBound else { return false }
        var hexDigits = 0
        for index in separator + 1..<range.upperBound {
            switch bytes[index] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): hexDigits += 1
            case UInt8(ascii: "-"): break
            default: return false
            }
        }
        return hexDigits == 32
    }
}
