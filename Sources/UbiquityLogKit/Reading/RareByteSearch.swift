#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds a text by its least common byte (as a guess), not by its first: where that is a blank,
/// a colon or a common letter, which stand all over a message (` received push with payload`,
/// `does not support …`), `memchr` stops and a comparison runs at nearly every byte.
enum RareByteSearch {
    /// Printable ASCII from the least to the most common in the generated default mix (the 3 MB
    /// slice): hex digits, lower-case letters and blanks are everywhere, `K`, `=`, `w` and `z`
    /// rare where `C`, `E`, `S` and `p` are not.
    private static let byFrequency = Array(#"!#$&*@^`?\X|%ZYHzGQV'j,;{T}W+"=wO_kI~()RNKLvMJ<>h[]fB7UP8qE/x.SA9m6Fgyp53DbC4-dsc2ul1n:ra0itoe "#.utf8)

    /// The offset in `text` of its least common byte by `byFrequency`: for the rule search's
    /// required texts, each looked for in most records of its channel. By `anchor(of:)`'s
    /// classes, texts such as framework names would be looked for by `C`, `E`, `S` or `p`,
    /// which stand often in the logs; by this, by bytes that stand seldom.
    static func anchorInLogs(of text: UnsafeRawBufferPointer) -> Int {
        var best = 0
        var bestRank = Int.max
        for (offset, byte) in text.enumerated() {
            let rank = rank(of: byte)
            if rank < bestRank {
                best = offset
                bestRank = rank
            }
        }
        return best
    }

    /// Where `byte` stands in `byFrequency`: lower is less common (`byFrequency.count` for a
    /// byte not in it).
    static func rank(of byte: UInt8) -> Int { ranks[Int(byte)] }

    /// `rank(of:)` of every byte: start-up ranks the bytes of every required text.
    private static let ranks: [Int] = (0...255).map { byte in byFrequency.firstIndex(of: UInt8(byte)) ?? byFrequency.count }

    /// `rank(of:)` of every byte, as the required-text scan's C table takes it
    /// (`cbytescan_required_texts.byte_rank`).
    static let byteRanks: [UInt8] = ranks.map { UInt8($0) }

    /// The offset in `text` of the byte to look for it by.
    static func anchor(of text: UnsafeRawBufferPointer) -> Int {
        var best = 0
        var bestCommonness = Int.max
        for (offset, byte) in text.enumerated() {
            let commonness = commonness(byte)
            if commonness < bestCommonness {
                best = offset
                bestCommonness = commonness
                if commonness == 0 { break }
            }
        }
        return best
    }

    private static func commonness(_ byte: UInt8) -> Int {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "("), UInt8(ascii: "'"), UInt8(ascii: "_"), UInt8(ascii: "="): 0
        case UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "g"), UInt8(ascii: "j"), UInt8(ascii: "k"), UInt8(ascii: "p"),
             UInt8(ascii: "q"), UInt8(ascii: "v"), UInt8(ascii: "w"), UInt8(ascii: "x"), UInt8(ascii: "y"), UInt8(ascii: "z"): 1
        case UInt8(ascii: "a")...UInt8(ascii: "z"): 2
        default: 3
        }
    }

    /// Where `text` first starts in `subject`, looked for by its byte at `anchor`; 0 for an
    /// empty text, nil when it is not there.
    static func firstOffset(of text: UnsafeRawBufferPointer, anchor: Int, in subject: UnsafeRawBufferPointer) -> Int? {
        guard let wanted = text.baseAddress, !text.isEmpty else { return 0 }
        guard let base = subject.baseAddress, text.count <= subject.count, anchor >= 0, anchor < text.count else { return nil }
        let key = Int32(text[anchor])
        let last = subject.count - text.count  // the last offset the text can start at
        var start = 0
        while start <= last {
            // Hits come in order, so the first whole match is the first occurrence.
            guard let hit = memchr(base + start + anchor, key, last - start + 1) else { return nil }
            let offset = UnsafeRawPointer(hit) - base - anchor
            // Most hits of the anchor are not the text: its first eight bytes, compared as a word,
            // tell them without a call to memcmp.
            if text.count >= 8, offset + 8 <= subject.count,
               (base + offset).loadUnaligned(as: UInt64.self) != wanted.loadUnaligned(as: UInt64.self) {
                start = offset + 1
                continue
            }
            if memcmp(base + offset, wanted, text.count) == 0 { return offset }
            start = offset + 1
        }
        return nil
    }

    static func firstOffset(of text: UnsafeRawBufferPointer, in subject: UnsafeRawBufferPointer) -> Int? {
        firstOffset(of: text, anchor: anchor(of: text), in: subject)
    }
}
