// What an input's first line tells of its encoding. A UTF-8 byte order mark is no part of the
// first line: left there, it would hide the line's header. UTF-16 (by its mark, or ASCII text
// with a NUL in every other byte) is not read as text: the run counts its lines, then names
// the input and says how to convert it, rather than finding no sync records without a word.

enum TextEncoding: Equatable {
    case utf8, utf8WithMark, utf16LittleEndian, utf16BigEndian

    init(firstLine bytes: UnsafeRawBufferPointer) {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            self = .utf8WithMark
        } else if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE {
            self = .utf16LittleEndian
        } else if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF {
            self = .utf16BigEndian
        } else {
            self = TextEncoding.unmarked(bytes)
        }
    }

    /// UTF-16 without a mark: each of the first characters (eight at least, so that a binary
    /// line with a few NULs is not taken for it) is an ASCII byte beside a NUL.
    private static func unmarked(_ bytes: UnsafeRawBufferPointer) -> TextEncoding {
        let count = min(bytes.count, 64) & ~1
        guard count >= 16 else { return .utf8 }
        var little = true, big = true
        for index in stride(from: 0, to: count, by: 2) {
            let (first, second) = (bytes[index], bytes[index + 1])
            if first == 0 || first >= 0x80 || second != 0 { little = false }
            if second == 0 || second >= 0x80 || first != 0 { big = false }
        }
        return little ? .utf16LittleEndian : big ? .utf16BigEndian : .utf8
    }

    /// `UTF-16 (little-endian)`; nil for UTF-8.
    var utf16Description: String? {
        switch self {
        case .utf16LittleEndian: "UTF-16 (little-endian)"
        case .utf16BigEndian: "UTF-16 (big-endian)"
        case .utf8, .utf8WithMark: nil
        }
    }
}

extension Line {
    /// The line without its first `count` bytes (a byte order mark): in the same chunk, so
    /// that it still joins the lines after it as a range there.
    func droppingFirst(_ count: Int) -> Line {
        let dropped = min(count, bytes.count)
        return Line(bytes: UnsafeRawBufferPointer(rebasing: bytes[dropped...]), number: number, isTruncated: isTruncated,
                    chunk: chunk, tail: tail)
    }
}
