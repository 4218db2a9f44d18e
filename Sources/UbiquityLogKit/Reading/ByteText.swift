// Turning log bytes into text that is safe to show: valid UTF-8 passes through, every byte
// that is not part of valid UTF-8 becomes `\xNN`, so nothing is lost or silently replaced.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CByteScan

enum ByteText {
    /// The bytes as a String, invalid UTF-8 written as `\xNN`.
    static func string<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        // Contiguous bytes (nearly always) are checked eight at a time while they are ASCII,
        // then decoded, not through String(validating:as:), whose path is generic; the generic
        // path below only runs for invalid UTF-8.
        let contiguous = bytes.withContiguousStorageIfAvailable { buffer -> String? in
            isValidUTF8(UnsafeRawBufferPointer(buffer)) ? String(decoding: buffer, as: UTF8.self) : nil
        }
        if case .some(.some(let valid)) = contiguous { return valid }
        if contiguous == nil, let valid = String(validating: bytes, as: UTF8.self) { return valid }
        var result = ""
        result.reserveCapacity(bytes.count + 16)
        var pending: [UInt8] = []
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let length = validSequenceLength(bytes, at: index)
            if length > 0 {
                let end = bytes.index(index, offsetBy: length)
                pending.append(contentsOf: bytes[index..<end])
                index = end
            } else {
                if !pending.isEmpty {
                    result += String(decoding: pending, as: UTF8.self)
                    pending.removeAll(keepingCapacity: true)
                }
                result += hexEscape(bytes[index])
                index = bytes.index(after: index)
            }
        }
        if !pending.isEmpty { result += String(decoding: pending, as: UTF8.self) }
        return result
    }

    /// Whether the bytes are valid UTF-8, without making a String. ASCII (nearly all of a log)
    /// is skipped sixteen bytes at a time (`cbytescan_non_ascii`).
    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { isValidUTF8($0) }
    }

    /// Whether every byte is ASCII, checked sixteen bytes at a time (`cbytescan_non_ascii`).
    static func isASCII(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = buffer.baseAddress else { return true }
        return cbytescan_non_ascii(base, buffer.count) == buffer.count
    }

    static func isValidUTF8(_ buffer: UnsafeRawBufferPointer) -> Bool {
        guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return true }
        var index = 0
        while index < buffer.count {
            index += cbytescan_non_ascii(base + index, buffer.count - index)
            guard index < buffer.count else { break }
            let length = validSequenceLength(buffer, at: index)
            guard length > 0 else { return false }
            index += length
        }
        return true
    }

    static func hexEscape(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }

    /// Length of the well-formed UTF-8 sequence at `index` (RFC 3629: no overlongs, no
    /// surrogates, nothing above U+10FFFF), or 0 when the byte there does not start one.
    private static func validSequenceLength<Bytes: Collection>(_ bytes: Bytes, at index: Bytes.Index) -> Int where Bytes.Element == UInt8 {
        let first = bytes[index]
        if first < 0x80 { return 1 }
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch first {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return 0
        }
        var position = bytes.index(after: index)
        for offset in 1..<length {
            guard position != bytes.endIndex else { return 0 }
            let byte = bytes[position]
            let (minimum, maximum) = offset == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
            guard byte >= minimum, byte <= maximum else { return 0 }
            position = bytes.index(after: position)
        }
        return length
    }

    /// Text for a terminal or a CI log: control characters (C0 but tab, DEL, C1) shown as
    /// `\xNN` / `\u{NN}` so that log text can never move the cursor, change colours or
    /// start a terminal escape sequence.
    static func terminalSafe(_ text: String) -> String {
        guard hasControl(text) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result += scalar.value < 0x100 && scalar.value < 0x80 ? hexEscape(UInt8(scalar.value)) : "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `terminalSafe` of valid UTF-8 bytes, appended to `out` without making a String (the
    /// timeline's lines): runs without a control character are copied whole.
    static func appendTerminalSafe(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout ByteBuffer) {
        let hex: StaticString = "0123456789ABCDEF"
        func appendHex(_ byte: UInt8) {
            out.append(hex.utf8Start[Int(byte >> 4)])
            out.append(hex.utf8Start[Int(byte & 0x0F)])
        }
        var runStart = 0
        var index = 0
        while index < bytes.count {
            // Eight bytes at a time while none of them is below a blank (a tab among them
            // too), DEL or 0xC2 (the first byte of a C1 control): such a word is copied whole.
            if index + 8 <= bytes.count, let base = bytes.baseAddress,
               !mayHoldControl(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                index += 8
                continue
            }
            let byte = bytes[index]
            // C1 controls (U+0080 to U+009F) are 0xC2 and a byte of 0x80 to 0x9F in UTF-8.
            let isC1 = byte == 0xC2 && index + 1 < bytes.count && bytes[index + 1] & 0xE0 == 0x80
            guard (byte < 0x20 && byte != 0x09) || byte == 0x7F || isC1 else {
                index += 1
                continue
            }
            out.append(UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            if isC1 {
                out.append("\\u{")
                appendHex(bytes[index + 1])
                out.append(UInt8(ascii: "}"))
                index += 2
            } else {
                out.append("\\x")
                appendHex(byte)
                index += 1
            }
            runStart = index
        }
        out.append(UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }

    /// Whether one of a word's eight bytes is below 0x20, is 0x7F or is 0xC2 (bit tests whose
    /// answer is exact for the word as a whole, though not for which byte it is).
    @inline(__always)
    private static func mayHoldControl(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        // A byte below 0x20 (with its high bit clear): subtracting 0x20 borrows into its high bit.
        let below = (word &- ones &* 0x20) & ~word & highs != 0
        return below || hasZero(word ^ (ones &* 0x7F)) || hasZero(word ^ (ones &* 0xC2))
    }

    /// Whether `text` holds a control character (`isControl`), read on its UTF-8 bytes: C0
    /// but tab and DEL are one byte each, C1 (U+0080 to U+009F) the bytes C2 80 to C2 9F.
    static func hasControl(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            for index in bytes.indices {
                let byte = bytes[index]
                if (byte < 0x20 && byte != 0x09) || byte == 0x7F { return true }
                if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] >= 0x80, bytes[index + 1] <= 0x9F { return true }
            }
            return false
        }
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (value < 0x20 && value != 0x09) || value == 0x7F || (0x80...0x9F).contains(value)
    }
}

/// Searching bytes for bytes: memchr finds each candidate first byte, memcmp checks the rest.
enum ByteSearch {
    static func firstOffset(of needle: UnsafeRawBufferPointer, in haystack: UnsafeRawBufferPointer) -> Int? {
        guard let first = needle.first, let wanted = needle.baseAddress, let base = haystack.baseAddress,
              needle.count <= haystack.count else {
            return needle.isEmpty ? 0 : nil
        }
        var offset = 0
        let last = haystack.count - needle.count
        while offset <= last {
            guard let hit = memchr(base + offset, Int32(first), last - offset + 1) else { return nil }
            offset = UnsafeRawPointer(hit) - base
            if memcmp(base + offset, wanted, needle.count) == 0 { return offset }
            offset += 1
        }
        return nil
    }

    /// Where `byte` first stands in `haystack` at or after `start`.
    static func firstOffset(of byte: UInt8, in haystack: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = haystack.baseAddress, start < haystack.count,
              let hit = memchr(base + start, Int32(byte), haystack.count - start) else { return nil }
        return UnsafeRawPointer(hit) - base
    }
}

extension UnsafeRawBufferPointer {
    /// Whether these bytes are those of `array`.
    func equals(_ array: [UInt8]) -> Bool {
        guard count == array.count else { return false }
        guard let base = baseAddress else { return true }
        return array.withUnsafeBytes { other in other.baseAddress.map { memcmp($0, base, count) == 0 } ?? false }
    }
}
