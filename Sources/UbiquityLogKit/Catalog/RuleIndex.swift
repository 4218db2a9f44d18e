// Which rules can match at a position, found from the position's first two bytes. Each rule is
// filed under the literal texts its matches start with (`LeadingBytes.prefixes`), so a
// position costs a table lookup and a few byte comparisons, and only the rules whose text is
// there run their pattern. Candidates come in the rules' order: the order in which the joined
// alternation of a channel tries them (see `JoinedAlternation`).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct RuleIndex: Sendable {
    /// Rules by the literal texts they start with, looked up by a position's first two bytes.
    struct Table: Sendable {
        /// One prefix of one rule: `length` bytes of `pool` from `start`.
        fileprivate struct Entry: Sendable {
            let rule: Int32
            let start: Int32
            let length: Int32
        }

        fileprivate let pool: [UInt8]
        fileprivate let entries: [Entry]
        /// Entries by a position's first two bytes `k` (first << 8 | second):
        /// `entries[pairStarts[k]..<pairStarts[k + 1]]`, in rule order. A one-byte prefix is
        /// filed under all 256 pairs it begins.
        private let pairStarts: [Int32]
        /// One-byte prefixes by their byte (`256 * 256 + byte` in the same key space), for a
        /// position with one byte left.
        private static let singles = 1 << 16

        /// `filed`: rule numbers, in order, each with its prefixes (none empty).
        init(_ filed: [(rule: Int, prefixes: [[UInt8]])]) {
            var pool: [UInt8] = []
            var keyed: [(key: Int, entry: Entry)] = []
            for (rule, prefixes) in filed {
                for prefix in prefixes {
                    let entry = Entry(rule: Int32(rule), start: Int32(pool.count), length: Int32(prefix.count))
                    pool += prefix
                    let first = Int(prefix[0])
                    if prefix.count == 1 {
                        keyed.append((Table.singles + first, entry))
                        for second in 0..<256 { keyed.append((first << 8 | second, entry)) }
                    } else {
                        keyed.append((first << 8 | Int(prefix[1]), entry))
                    }
                }
            }
            // A stable sort by key keeps each bucket in the order rules were filed.
            keyed = keyed.enumerated().sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }.map(\.element)
            var starts = [Int32](repeating: 0, count: Table.singles + 256 + 1)
            var next = 0
            for key in 0..<(starts.count - 1) {
                starts[key] = Int32(next)
                while next < keyed.count, keyed[next].key == key { next += 1 }
            }
            starts[starts.count - 1] = Int32(next)
            self.pool = pool
            self.entries = keyed.map(\.entry)
            self.pairStarts = starts
        }

        /// The entries that may start at `position`.
        fileprivate func candidates(in subject: UnsafeRawBufferPointer, at position: Int) -> Range<Int> {
            let left = subject.count - position
            guard left >= 1 else { return 0..<0 }
            let key = left >= 2 ? Int(subject[position]) << 8 | Int(subject[position + 1]) : Table.singles + Int(subject[position])
            return Int(pairStarts[key])..<Int(pairStarts[key + 1])
        }

        fileprivate func starts(_ subject: UnsafeRawBufferPointer, at position: Int, with entry: Entry) -> Bool {
            guard Int(entry.length) <= subject.count - position else { return false }
            return pool.withUnsafeBytes { pool in
                guard let text = subject.baseAddress, let prefixes = pool.baseAddress else { return false }
                return memcmp(text + position, prefixes + Int(entry.start), Int(entry.length)) == 0
            }
        }
    }

    /// Rules by the text they start with.
    private let direct: Table
    /// Rules that start with an object's description (`Piece.objectPrefix`), by the text after
    /// it: looked up after the description a line starts with.
    private let described: Table
    /// Rules whose matches can start with anything, in order: tried at every position of a
    /// message that holds one of their required texts (see `Absence`).
    private let always: [Int32]
    /// For each of `always`, texts one of which every match of it contains (none when none is
    /// known; see `LeadingBytes.requiredTexts`): `always[n]`'s are `requiredTexts[textsOfSlot[n]..<textsOfSlot[n + 1]]`,
    /// each `length` bytes of `textPool` from `start`. One pool, not an array per text: an array
    /// of arrays retained and released each text it looked at (some 300 instructions a record).
    private let requiredTexts: [RequiredText]
    private let textsOfSlot: [Int32]
    private let textPool: [UInt8]

    private struct RequiredText: Sendable {
        let start: Int32
        let length: Int32
        /// The offset in the text of the byte it is looked for by (see `RareByteSearch`).
        let anchor: Int32
    }
    /// By byte: whether a candidate can start at a position holding it (all bytes when some
    /// rule can start with anything). Most positions of the after-object scan end here.
    private let mayStart: [Bool]

    /// `rules`: each rule's number (what `next` reports) and its pattern.
    init(rules: [(number: Int, pattern: String)]) {
        var direct: [(Int, [[UInt8]])] = []
        var described: [(Int, [[UInt8]])] = []
        var always: [Int32] = []
        var requiredTexts: [RequiredText] = []
        var textsOfSlot: [Int32] = [0]
        var textPool: [UInt8] = []
        for (number, pattern) in rules {
            let prefixes = LeadingBytes.prefixes(of: pattern)
            if prefixes.contains(where: \.isEmpty) {
                always.append(Int32(number))
                for text in LeadingBytes.requiredTexts(of: pattern) {
                    let anchor = text.withUnsafeBytes { RareByteSearch.anchor(of: $0) }
                    requiredTexts.append(RequiredText(start: Int32(textPool.count), length: Int32(text.count), anchor: Int32(anchor)))
                    textPool += text
                }
                textsOfSlot.append(Int32(requiredTexts.count))
                continue
            }
            // `(?:<…>:?[ ]*)?text`: with a description, the text stands right after its colon and
            // blanks, unless the text itself can start with a blank or a colon.
            if pattern.hasPrefix(Piece.objectPrefix) {
                let after = LeadingBytes.prefixes(of: String(pattern.dropFirst(Piece.objectPrefix.count)))
                if after.allSatisfy({ $0.first.map { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: ":") } ?? false }) {
                    direct.append((number, after))
                    described.append((number, after))
                    continue
                }
            }
            direct.append((number, prefixes))
        }
        self.direct = Table(direct)
        self.described = Table(described)
        self.always = always
        self.requiredTexts = requiredTexts
        self.textsOfSlot = textsOfSlot
        self.textPool = textPool
        var mayStart = [Bool](repeating: !always.isEmpty, count: 256)
        for (_, prefixes) in direct { for prefix in prefixes { mayStart[Int(prefix[0])] = true } }
        if !described.isEmpty { mayStart[Int(UInt8(ascii: "<"))] = true }
        self.mayStart = mayStart
    }

    /// Whether any rule may start at `position` of `subject`, told by its byte (false means
    /// `firstMatch` finds none there).
    @inline(__always)
    func mayStart(in subject: UnsafeRawBufferPointer, at position: Int) -> Bool {
        position >= subject.count || mayStart[Int(subject[position])]
    }

    /// What one message's search knows of the rules tried everywhere: bit n of `absent`
    /// stands for `always[n]`, set when the message lacks its required text, and is known once
    /// bit n of `checked` is set. Found out the first time a position offers the rule, not for
    /// every rule up front: looking for all of them in every message cost some 880
    /// instructions a record on the default mix (callgrind), and a message whose first line
    /// matches an earlier rule never needs most of them.
    struct Absence {
        fileprivate var checked: UInt64 = 0
        fileprivate var absent: UInt64 = 0
        init() {}
    }

    /// Where the walk over one position's candidates stands (see `next`). Plain integers: the
    /// walk holds no reference, so it retains and releases nothing.
    struct Cursor {
        fileprivate var direct: Range<Int>
        fileprivate var described: Range<Int>
        /// Where the text after an object's description starts; -1 when there is none.
        fileprivate let afterDescription: Int
        fileprivate var nextAlways = 0
        fileprivate var tried: Int32 = -1
    }

    /// The walk over the rules that may match at `position` of `subject`.
    @inline(__always)
    func cursor(in subject: UnsafeRawBufferPointer, at position: Int) -> Cursor {
        let afterDescription = RuleIndex.descriptionEnd(in: subject, at: position)
        return Cursor(direct: direct.candidates(in: subject, at: position),
                      described: afterDescription.map { described.candidates(in: subject, at: $0) } ?? 0..<0,
                      afterDescription: afterDescription ?? -1)
    }

    /// The next rule, in rule order, that may match at `position` of `subject` (each rule
    /// once); nil when none is left. `cursor` comes from `cursor(in:at:)` for the same
    /// position, `absence` is kept for the whole of one subject.
    ///
    /// A cursor rather than a search that calls back (`firstMatch(…) { rule in … }` until
    /// now): the caller runs each rule's pattern in a loop of its own, where the generic,
    /// throwing closure and the retains around its context cost some 1,400 instructions a
    /// record (callgrind, default mix).
    func next(_ cursor: inout Cursor, in subject: UnsafeRawBufferPointer, at position: Int, _ absence: inout Absence) -> Int? {
        while true {
            let fromDirect = cursor.direct.isEmpty ? Int32.max : direct.entries[cursor.direct.lowerBound].rule
            let fromDescribed = cursor.described.isEmpty ? Int32.max : described.entries[cursor.described.lowerBound].rule
            let fromAlways = cursor.nextAlways < always.count ? always[cursor.nextAlways] : Int32.max
            let rule = min(fromDirect, fromDescribed, fromAlways)
            if rule == Int32.max { return nil }
            var worth = false
            if rule == fromAlways {
                worth = isPossible(slot: cursor.nextAlways, in: subject, &absence)
                cursor.nextAlways += 1
            } else if rule == fromDirect {
                worth = direct.starts(subject, at: position, with: direct.entries[cursor.direct.lowerBound])
                cursor.direct = cursor.direct.dropFirst()
            } else {
                worth = described.starts(subject, at: cursor.afterDescription, with: described.entries[cursor.described.lowerBound])
                cursor.described = cursor.described.dropFirst()
            }
            guard worth, rule != cursor.tried else { continue }
            cursor.tried = rule
            return Int(rule)
        }
    }

    /// Whether `always[slot]` may match in `subject`: false when none of its required texts is there.
    private func isPossible(slot: Int, in subject: UnsafeRawBufferPointer, _ absence: inout Absence) -> Bool {
        guard slot < 64 else { return true }
        let bit: UInt64 = 1 << UInt64(slot)
        if absence.checked & bit == 0 {
            absence.checked |= bit
            let texts = Int(textsOfSlot[slot])..<Int(textsOfSlot[slot + 1])
            if !texts.isEmpty, !textPool.withUnsafeBytes({ pool in
                texts.contains { index in
                    let text = requiredTexts[index]
                    let bytes = UnsafeRawBufferPointer(rebasing: pool[Int(text.start)..<Int(text.start + text.length)])
                    return RareByteSearch.firstOffset(of: bytes, anchor: Int(text.anchor), in: subject) != nil
                }
            }) {
                absence.absent |= bit
            }
        }
        return absence.absent & bit == 0
    }

    /// Where text after the object description at `position` starts: past `<`, 1 to 200
    /// bytes other than `>` and line ends, `>`, an optional colon and any blanks (what
    /// `Piece.objectPrefix` matches, taking all it can); nil when there is no description.
    static func descriptionEnd(in subject: UnsafeRawBufferPointer, at position: Int) -> Int? {
        guard position < subject.count, subject[position] == UInt8(ascii: "<") else { return nil }
        var end = position + 1
        let limit = min(subject.count, position + 202)
        while end < limit, subject[end] != UInt8(ascii: ">"), subject[end] != 0x0A { end += 1 }
        guard end < limit, subject[end] == UInt8(ascii: ">"), end >= position + 2 else { return nil }
        end += 1
        if end < subject.count, subject[end] == UInt8(ascii: ":") { end += 1 }
        while end < subject.count, subject[end] == 0x20 { end += 1 }
        return end
    }
}

/// Finds a text by its least common byte (as a guess): `memchr` for its first byte and a
/// comparison at each hit was slow where that byte is a blank, a colon or a common letter, which
/// stand all over a message (` received push with payload`, `does not support …`).
enum RareByteSearch {
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
            if memcmp(base + offset, wanted, text.count) == 0 { return offset }
            start = offset + 1
        }
        return nil
    }

    static func firstOffset(of text: UnsafeRawBufferPointer, in subject: UnsafeRawBufferPointer) -> Int? {
        firstOffset(of: text, anchor: anchor(of: text), in: subject)
    }
}
