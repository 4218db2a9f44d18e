// Searching and trimming Strings on their UTF-8 bytes, for ASCII needles and trim sets: the
// generic Character-wise ways walk grapheme clusters, and these run on every record.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CByteScan

extension String {
    /// Whether the ASCII text `needle` stands in the string: `firstRange(ofASCII:)` without the
    /// indexes it makes of what it finds (a CKError's cause asks its two texts for up to four
    /// phrases).
    func containsASCII(_ needle: StaticString) -> Bool {
        let found = utf8.withContiguousStorageIfAvailable { haystack in
            RareByteSearch.firstOffset(of: UnsafeRawBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount),
                                       in: UnsafeRawBufferPointer(haystack)) != nil
        }
        return found ?? (firstRange(ofASCII: needle) != nil)
    }
}

extension String {
    /// `contains(needle)`, searched as bytes where bytes and Characters agree: both texts
    /// ASCII with no carriage return (`\r\n` is one Character); else Character by Character.
    func containsText(_ needle: String) -> Bool {
        guard let plain = Self.plainBytes(self, needle, { $0.firstOffset(of: $1) != nil }) else { return contains(needle) }
        return plain
    }

    /// `hasPrefix(prefix)` as `containsText` is `contains`.
    func hasPrefixText(_ prefix: String) -> Bool {
        guard let plain = Self.plainBytes(self, prefix, { $0.starts(with: $1) }) else { return hasPrefix(prefix) }
        return plain
    }

    /// `compare` of the two texts' bytes when both are ASCII with no carriage return; nil otherwise.
    private static func plainBytes(_ text: String, _ needle: String,
                                   _ compare: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Bool) -> Bool? {
        var text = text, needle = needle
        return text.withUTF8 { haystack in
            needle.withUTF8 { wanted in
                guard isPlain(haystack), isPlain(wanted) else { return nil }
                return compare(UnsafeRawBufferPointer(haystack), UnsafeRawBufferPointer(wanted))
            }
        }
    }

    private static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        return cbytescan_non_ascii(base, bytes.count) == bytes.count && memchr(base, 0x0D, bytes.count) == nil
    }
}

extension UnsafeRawBufferPointer {
    /// Where `needle` first starts in these bytes.
    func firstOffset(of needle: UnsafeRawBufferPointer) -> Int? { RareByteSearch.firstOffset(of: needle, in: self) }
}

extension StringProtocol {
    /// Drops the given ASCII characters from both ends (Foundation-free). Works on the UTF-8
    /// bytes, with no Set of Characters made per call.
    func trimmingCharacters(in set: StaticString) -> String {
        let trimmed = UnsafeBufferPointer(start: set.utf8Start, count: set.utf8CodeUnitCount)
        var bytes = Substring(self).utf8
        while let first = bytes.first, trimmed.contains(first) { bytes.removeFirst() }
        while let last = bytes.last, trimmed.contains(last) { bytes.removeLast() }
        return String(Substring(bytes))
    }

    /// Where the ASCII text `needle` first occurs, searched as bytes (the generic
    /// `firstRange(of:)` compares Characters, slow on long object dumps).
    func firstRange(ofASCII needle: StaticString) -> Range<Index>? {
        let text = Substring(self)
        let utf8 = text.utf8
        let found: Int?? = utf8.withContiguousStorageIfAvailable { haystack -> Int? in
            // By the needle's least common byte: a cause may be looked for in a failure's whole
            // text by several phrases, whose first bytes (`d`, `r`, `a`, …) stand everywhere in it.
            RareByteSearch.firstOffset(of: UnsafeRawBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount),
                                       in: UnsafeRawBufferPointer(haystack))
        }
        let offset: Int
        switch found {
        case .some(.some(let value)): offset = value
        case .some(.none): return nil
        case .none:
            guard let range = text.firstRange(of: String(describing: needle)) else { return nil }
            return range
        }
        let lower = utf8.index(utf8.startIndex, offsetBy: offset)
        let upper = utf8.index(lower, offsetBy: needle.utf8CodeUnitCount)
        return lower..<upper
    }
}
