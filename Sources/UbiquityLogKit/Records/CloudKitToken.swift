// The `CoreData+CloudKit:` token that marks a record of Core Data's CloudKit mirroring. The
// loose reading (`LooseMarkers`) finds it wherever a line puts it (it is among
// `Marker.spellings`); this finds it behind the marker of Core Data's error lines, which the
// stderr copy of an error record prints first. The logging method follows the token, where the
// ubiquity family prints it before its marker.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum CloudKitToken {
    static let token: StaticString = "CoreData+CloudKit:"
    /// How far into a line the token is looked for: past a header, a level word or two and a
    /// `[subsystem:category]`, never into a long message that merely quotes it.
    static let window = 256

    /// Where the token starts in the first line of `bytes` from `start`, within `window` bytes.
    ///
    /// Found by its `+`, which messages seldom hold, and checked in full only there: every
    /// header line whose message starts with no marker asks (most of the default mix), and a
    /// search by the token's first byte stopped at every `C` of `CoreData: CloudKit:` and of
    /// the message: the token's reading after a header cost some 190 instructions a record on
    /// the default mix (callgrind), some 127 now. The line's end is looked for only once a token
    /// is found, and not at all in a header's line (`oneLine`: the reader splits lines at line
    /// feeds; some 17 instructions a record fewer on the default mix). Finding the `+`s sixteen
    /// bytes at a time in C (SSE2) and comparing the token as words was tried: 9 instructions
    /// a record more than memchr (AVX2) on the default mix.
    static func find(in bytes: UnsafeRawBufferPointer, from start: Int, oneLine: Bool = false) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress else { return nil }
        let length = min(bytes.count - start, window)
        let tokenLength = token.utf8CodeUnitCount
        guard length >= tokenLength else { return nil }
        let plusOffset = 8  // `CoreData+`: the token's only `+`
        let tokenStart = token.utf8Start
        // A token that ends within the window has its `+` from `start + 8` to `start + length - 10`.
        var at = start + plusOffset
        let lastPlus = start + length - (tokenLength - plusOffset)
        while at <= lastPlus, let hit = memchr(base + at, Int32(UInt8(ascii: "+")), lastPlus - at + 1) {
            let plus = base.distance(to: UnsafeRawPointer(hit))
            let found = plus - plusOffset
            if memcmp(base + found, tokenStart, tokenLength) == 0 {
                // Only within the first line: a line end before it puts it on a later one.
                return oneLine || memchr(base + start, 0x0A, found - start) == nil ? found : nil
            }
            at = plus + 1
        }
        return nil
    }
}

extension Prefix {
    /// `CoreData: error: CoreData+CloudKit: …` (the stderr copy of an error record) is a
    /// mirroring record, not a `CoreData: error:` one; so is a message read without the loose
    /// reading (an NDJSON `eventMessage`) that holds the token: its body starts after the token
    /// and the logging method.
    @inline(__always)
    mutating func takeCloudKitToken(_ bytes: UnsafeRawBufferPointer, oneLine: Bool) {
        guard marker == nil || marker == .coreDataError,
              let token = CloudKitToken.find(in: bytes, from: end, oneLine: oneLine) else { return }
        marker = .cloudKit
        var after = token + CloudKitToken.token.utf8CodeUnitCount
        while after < bytes.count, bytes[after] == 0x20 || bytes[after] == 0x09 { after += 1 }
        end = after
        if let (method, line, next) = Prefix.method(bytes, after, oneLine: oneLine) ?? CloudKitToken.looseMethod(bytes, after) {
            self.method = method
            sourceLine = line
            end = next
        }
    }
}

extension CloudKitToken {
    /// `-[Class selector]` (or `[Class selector]`) and any suffix without blanks (`]block_invoke`, as some logs print
    /// it) before `(line): `: the method as printed, its line, and where the message starts.
    static func looseMethod(_ bytes: UnsafeRawBufferPointer, _ start: Int) -> (Range<Int>, Range<Int>, Int)? {
        guard start + 2 < bytes.count else { return nil }
        var index = start
        // `[Class method]`: pasted without its `-`.
        if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
        guard bytes[index] == UInt8(ascii: "[") else { return nil }
        index += 1
        let limit = min(bytes.count, start + 400)
        while index < limit, bytes[index] != UInt8(ascii: "]"), bytes[index] != 0x0A { index += 1 }
        guard index < limit, bytes[index] == UInt8(ascii: "]") else { return nil }
        while index < limit, bytes[index] != UInt8(ascii: "("), bytes[index] != 0x20, bytes[index] != 0x0A { index += 1 }
        guard index < limit, bytes[index] == UInt8(ascii: "(") else { return nil }
        let methodEnd = index
        let lineStart = index + 1
        index = lineStart
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        guard index > lineStart, index + 1 < bytes.count, bytes[index] == UInt8(ascii: ")"), bytes[index + 1] == UInt8(ascii: ":") else { return nil }
        let line = lineStart..<index
        index += 2
        if index < bytes.count, bytes[index] == 0x20 { index += 1 }
        return (start..<methodEnd, line, index)
    }
}
