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
    /// message that holds their required text (see `absentTexts`).
    private let always: [Int32]
    /// For each of `always`, a text every match of it contains (empty when none is known).
    private let requiredTexts: [[UInt8]]
    /// By byte: whether a candidate can start at a position holding it (all bytes when some
    /// rule can start with anything). Most positions of the after-object scan end here.
    private let mayStart: [Bool]

    /// `rules`: each rule's number (what `firstMatch` reports) and its pattern.
    init(rules: [(number: Int, pattern: String)]) {
        var direct: [(Int, [[UInt8]])] = []
        var described: [(Int, [[UInt8]])] = []
        var always: [Int32] = []
        var requiredTexts: [[UInt8]] = []
        for (number, pattern) in rules {
            let prefixes = LeadingBytes.prefixes(of: pattern)
            if prefixes.contains(where: \.isEmpty) {
                always.append(Int32(number))
                requiredTexts.append(LeadingBytes.requiredText(of: pattern))
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

    /// Rules tried everywhere that cannot match in `message`: bit n stands for `always[n]`,
    /// set when the message lacks its required text.
    func absentTexts(in message: UnsafeRawBufferPointer) -> UInt64 {
        var absent: UInt64 = 0
        for (slot, text) in requiredTexts.enumerated() where slot < 64 && !text.isEmpty {
            if text.withUnsafeBytes({ ByteSearch.firstOffset(of: $0, in: message) }) == nil { absent |= 1 << UInt64(slot) }
        }
        return absent
    }

    /// The first rule, in rule order, that may match at `position` of `subject` and for which
    /// `matches` says it does; nil when none does. `matches` is called once per rule at most.
    /// `absent` comes from `absentTexts` for the same subject.
    func firstMatch<Failure: Error>(
        in subject: UnsafeRawBufferPointer, at position: Int, absent: UInt64 = 0, _ matches: (Int) throws(Failure) -> Bool
    ) throws(Failure) -> Int? {
        if position < subject.count, !mayStart[Int(subject[position])] { return nil }
        var direct = self.direct.candidates(in: subject, at: position)
        let afterDescription = RuleIndex.descriptionEnd(in: subject, at: position)
        var described = afterDescription.map { self.described.candidates(in: subject, at: $0) } ?? 0..<0
        var nextAlways = 0
        var tried: Int32 = -1
        while true {
            let fromDirect = direct.isEmpty ? Int32.max : self.direct.entries[direct.lowerBound].rule
            let fromDescribed = described.isEmpty ? Int32.max : self.described.entries[described.lowerBound].rule
            let fromAlways = nextAlways < always.count ? always[nextAlways] : Int32.max
            let rule = min(fromDirect, fromDescribed, fromAlways)
            if rule == Int32.max { return nil }
            var worth = false
            if rule == fromAlways {
                worth = nextAlways >= 64 || absent & (1 << UInt64(nextAlways)) == 0
                nextAlways += 1
            } else if rule == fromDirect {
                worth = self.direct.starts(subject, at: position, with: self.direct.entries[direct.lowerBound])
                direct = direct.dropFirst()
            } else if let afterDescription {
                worth = self.described.starts(subject, at: afterDescription, with: self.described.entries[described.lowerBound])
                described = described.dropFirst()
            }
            guard worth, rule != tried else { continue }
            tried = rule
            if try matches(Int(rule)) { return Int(rule) }
        }
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
