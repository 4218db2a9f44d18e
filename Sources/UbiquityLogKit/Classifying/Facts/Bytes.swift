#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte searches over a record's text (memchr/memmem underneath).
enum Bytes {
    static let exportingWord = Array("exporting ".utf8)
    static let dataMarker = Array("; data: ".utf8)
    static let uriStart = Array("<x-coredata://".utf8)
    static let fault = Array("<fault>".utf8)
    static let objectEnd = Array("})".utf8)
    static let assignment = Array(" = ".utf8)

    static func find(_ byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int, before end: Int? = nil) -> Int? {
        let stop = min(end ?? bytes.count, bytes.count)
        guard start < stop, let base = bytes.baseAddress, let found = memchr(base + start, Int32(byte), stop - start) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// First place of `needle` in `bytes[range]`: memchr for its first byte, then a compare.
    static func find(_ needle: [UInt8], in bytes: UnsafeRawBufferPointer, range: Range<Int>) -> Int? {
        guard let first = needle.first, range.count >= needle.count else { return nil }
        let lastStart = range.upperBound - needle.count
        var from = range.lowerBound
        while from <= lastStart, let at = find(first, in: bytes, from: from, before: lastStart + 1) {
            if hasPrefix(bytes, at..<range.upperBound, needle) { return at }
            from = at + 1
        }
        return nil
    }

    static func findLast(_ needle: [UInt8], in bytes: UnsafeRawBufferPointer, range: Range<Int>) -> Int? {
        var last: Int?
        var from = range.lowerBound
        while let found = find(needle, in: bytes, range: from..<range.upperBound) {
            last = found
            from = found + 1
        }
        return last
    }

    static func hasPrefix(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ prefix: [UInt8]) -> Bool {
        guard range.count >= prefix.count else { return false }
        for (offset, byte) in prefix.enumerated() where bytes[range.lowerBound + offset] != byte { return false }
        return true
    }

    /// `range` without leading and trailing spaces and tabs.
    static func trim(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        return lower..<upper
    }
}
