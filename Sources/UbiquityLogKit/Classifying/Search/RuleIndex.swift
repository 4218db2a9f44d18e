// Which rules can match at a position, found from the position's first two bytes. Each rule is
// filed under the literal texts its matches start with (`LeadingBytes.leads`), so a
// position costs a table lookup and a few byte comparisons, and only the rules whose text is
// there run their pattern. Candidates come in the rules' order: the order in which the joined
// alternation of a channel tries them (see `JoinedAlternation`). A candidate whose text is
// enough for a match (`Candidate.sure`) needs its pattern run only for what the match holds.
import CByteScan
import PatternLeads
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct RuleIndex: Sendable {
    /// Owns the tables' memory.
    private let storage: Storage
    /// The tables, read by the search.
    let tables: Tables

    /// `rules`: each rule's number (what `next` reports) and its pattern.
    init(rules: [(number: Int, pattern: String)]) {
        let storage = Storage()
        tables = Tables(rules: rules, storage: storage)
        self.storage = storage
    }

    /// Owns the tables' memory: blocks allocated in `Tables.init`, freed with the index.
    fileprivate final class Storage: @unchecked Sendable {
        var memory: [UnsafeMutableRawPointer] = []
        /// Tables from `zeroedTable`.
        var zeroed: [UnsafeMutableRawPointer] = []
        /// Owns `Tables.requiredScan`.
        var scan: RequiredTextScan?
        deinit {
            for block in memory { block.deallocate() }
            for block in zeroed { ZeroedMemory.unmap(block, Storage.tableBytes) }
        }

        /// Bytes of a table of `Tables.keyCount` pairs of starts.
        static let tableBytes = 2 * Tables.keyCount * MemoryLayout<Int32>.stride

        /// `count` zeros, mapped from the system: its pages are made when first written.
        static func zeroedTable(count: Int) -> UnsafeMutablePointer<Int32> {
            precondition(count * MemoryLayout<Int32>.stride == tableBytes, "a rule index's table has a start and an end a key")
            return ZeroedMemory.map(tableBytes).assumingMemoryBound(to: Int32.self)
        }
    }

    func mayStart(in subject: UnsafeRawBufferPointer, at position: Int) -> Bool { tables.mayStart(in: subject, at: position) }
    func cursor(in subject: UnsafeRawBufferPointer, at position: Int) -> Cursor { tables.cursor(in: subject, at: position) }
    func next(_ cursor: inout Cursor, in subject: UnsafeRawBufferPointer, at position: Int, _ absence: inout Absence) -> Candidate? {
        tables.next(&cursor, in: subject, at: position, &absence)
    }

    /// A rule that may match at a position.
    struct Candidate {
        let rule: Int
        /// Whether the text it was found by is enough: the rule's pattern matches there
        /// (`PatternLead.sure`). Most pattern runs of a `-q` run are such matches, whose
        /// builder it does not call.
        let sure: Bool
    }

    /// What one message's search knows of the rules with a slot (tried everywhere, or filed
    /// under a lead shorter than their required texts, see `Entry.slot`): bit n of `absent`
    /// stands for slot n, set when the message lacks its required text, and is known once
    /// bit n of `checked` is set. Found out the first time a position offers such a rule: for
    /// every slot of the rules tried everywhere in one pass (a message whose first line matches
    /// an earlier rule needs no pass), for another slot by a search for each of its texts.
    struct Absence {
        fileprivate var checked: UInt64 = 0
        fileprivate var absent: UInt64 = 0
        init() {}
        /// Whether slot `slot` is known to lack its required texts (for tests).
        func isAbsent(slot: Int) -> Bool { checked & absent & (1 << UInt64(slot)) != 0 }
    }

    /// Where the walk over one position's candidates stands (see `next`). Plain integers: the
    /// walk holds no reference, so it retains and releases nothing.
    struct Cursor {
        fileprivate var direct: Int
        fileprivate let directEnd: Int
        fileprivate var described: Int
        fileprivate let describedEnd: Int
        /// Where the text after an object's description starts; -1 when there is none.
        fileprivate let afterDescription: Int
        /// Whether the colons and blanks between the description and that text are what
        /// `PatternPiece.objectPrefix` takes (`:?[ ]*`): only then is a described text sure.
        fileprivate let plainSeparators: Bool
        fileprivate var tried: Int32 = -1
    }

    /// Where text after the object description at `position` starts: past `<`, 1 to 200
    /// bytes other than `>` and line ends, `>`, and any colons and blanks; nil when there is no
    /// description. `PatternPiece.objectPrefix` takes one colon and the blanks after it: a rule's text
    /// may start with more of them, which its described prefixes leave out (see `Tables.init`).
    static func descriptionEnd(in subject: UnsafeRawBufferPointer, at position: Int) -> Int? {
        guard position < subject.count, subject[position] == UInt8(ascii: "<"), let base = subject.baseAddress else { return nil }
        // The `>` and a line end before it found by memchr, not byte by byte: a description is
        // some 40 bytes, and one is read at every line that starts with `<`.
        let limit = min(subject.count, position + 202)
        guard let close = memchr(base + position + 1, Int32(UInt8(ascii: ">")), limit - position - 1) else { return nil }
        let closing = UnsafeRawPointer(close) - base
        guard closing >= position + 2, memchr(base + position + 1, 0x0A, closing - position - 1) == nil else { return nil }
        var end = closing + 1
        while end < subject.count, subject[end] == UInt8(ascii: ":") || subject[end] == 0x20 { end += 1 }
        return end
    }

    /// Whether `subject[start..<end]` is at most one colon, first, then blanks.
    static func plainSeparators(in subject: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Bool {
        var index = start
        if index < end, subject[index] == UInt8(ascii: ":") { index += 1 }
        while index < end, subject[index] == 0x20 { index += 1 }
        return index == end
    }
}

extension RuleIndex {
    /// The index as plain pointers into memory of its own (`Storage`): a search that keeps a
    /// copy walks a position's candidates without retaining or releasing anything and without
    /// checking array bounds, in one list per position rather than three merged as it goes.
    /// Written once, in `init`; read-only after it, so threads may share it. Valid while the
    /// `RuleIndex` it came from lives.
    struct Tables: @unchecked Sendable {
        /// One candidate of a bucket: rule `rule` when `length` bytes of `pool` from `start` stand
        /// at the position; when `length` is negative, a rule tried everywhere, `start` its slot
        /// (see `Absence`). `sure` when those bytes are enough for a match. `slot`: for a rule
        /// filed under a lead shorter than the texts one of which every match of it contains,
        /// the slot of those texts (-1 for none): offered by a lead that is not sure, the rule
        /// is a candidate only where the message holds one of them (`[` leads
        /// `store-add-failed-unmarked`, as a `[subsystem:category]` tag may open its match, on
        /// every record that starts with a tag; it matches only with
        /// `addPersistentStoreWithType:` after the tag).
        struct Entry: Hashable {
            let rule: Int32
            let start: Int32
            let length: Int32
            var sure = false
            var slot: Int16 = -1
        }

        /// Bytes of keys: a position's first two bytes `first << 8 | second`, and after them
        /// `singles + byte` for a position with one byte left.
        private static let singles = 1 << 16
        fileprivate static let keyCount = singles + 256 + 1  // and the position at the end of a subject

        /// Candidates at a position, by key: `entries[bucketStarts[2 * key]..<bucketStarts[2 * key + 1] +
        /// alwaysCount]`, in rule order. The rules tried everywhere are merged into every bucket, so a
        /// walk reads one list; the keys a one-byte prefix stands under share theirs.
        private let bucketStarts: UnsafeMutablePointer<Int32>
        private let entries: UnsafeMutablePointer<Entry>
        /// How many rules are tried everywhere: the first entries, the bucket of a key no prefix
        /// starts with (whose start and end are zeros).
        private let alwaysCount: Int
        /// Rules that start with an object's description (`PatternPiece.objectPrefix`), by the text after
        /// it: looked up, the same way, after the description a line starts with.
        private let describedStarts: UnsafeMutablePointer<Int32>
        private let describedEntries: UnsafeMutablePointer<Entry>
        /// Prefixes and required texts, followed by 16 zero bytes (see `starts`).
        private let pool: UnsafeMutablePointer<UInt8>
        /// For the rule in slot n (see `Absence`), texts one of which every match of it contains
        /// (none when none is known; see `LeadingBytes.requiredTexts`):
        /// `requiredTexts[textsOfSlot[n]..<textsOfSlot[n + 1]]`, each in `pool`.
        private let textsOfSlot: UnsafeMutablePointer<Int32>
        private let slotTotal: Int
        private let requiredTexts: UnsafeMutablePointer<RequiredText>
        /// By byte: whether a candidate can start at a position holding it (all bytes when some
        /// rule can start with anything). Most positions of the after-object scan end here.
        private let mayStartTable: UnsafeMutablePointer<Bool>
        /// Whether any rule is filed by the text after an object's description.
        private let hasDescribed: Bool
        /// The required texts of the slots of the rules tried everywhere under 64, looked for
        /// all at once (`absences`).
        private let requiredScan: UnsafePointer<cbytescan_required_texts>
        /// Those slots, as bits (see `Absence`). The slots of rules filed under a lead
        /// (`Entry.slot`) are looked for one by one: a message seldom asks for more than one
        /// of them, and their texts in the one pass would make every pass dearer (its cost
        /// grows with the places its anchor bytes stand).
        private let scannedSlots: UInt64

        private struct RequiredText {
            let start: Int32
            let length: Int32
            /// The offset in the text of the byte it is looked for by (see `RareByteSearch`).
            let anchor: Int32
        }

        fileprivate init(rules: [(number: Int, pattern: String)], storage: Storage) {
            var direct: [(Int, [PatternFiling.Lead], slot: Int16)] = []
            var described: [(Int, [PatternFiling.Lead], slot: Int16)] = []
            var always: [Entry] = []
            var requiredTexts: [RequiredText] = []
            var textsOfSlot: [Int32] = [0]
            var pool: [UInt8] = []
            func addSlot(_ texts: [[UInt8]]) {
                for text in texts {
                    let anchor = text.withUnsafeBytes { RareByteSearch.anchorInLogs(of: $0) }
                    requiredTexts.append(RequiredText(start: Int32(pool.count), length: Int32(text.count), anchor: Int32(anchor)))
                    pool += text
                }
                textsOfSlot.append(Int32(requiredTexts.count))
            }
            let filings = rules.map { (number: $0.number, filing: PatternFiling.of($0.pattern)) }
            // The rules tried everywhere take the first slots, those under 64 being looked for.
            for (number, filing) in filings where filing.always {
                always.append(Entry(rule: Int32(number), start: Int32(always.count), length: -1))
                addSlot(filing.required)
            }
            for (number, filing) in filings where !filing.always {
                var slot: Int16 = -1
                if textsOfSlot.count - 1 < 64, Tables.looksForRequiredTexts(filing) {
                    slot = Int16(textsOfSlot.count - 1)
                    addSlot(filing.required)
                }
                direct.append((number, filing.direct, slot))
                if !filing.described.isEmpty { described.append((number, filing.described, slot)) }
            }
            var blocks: [UnsafeMutableRawPointer] = []
            func copy<T>(_ array: [T], padding: Int = 0) -> UnsafeMutablePointer<T> {
                let memory = UnsafeMutablePointer<T>.allocate(capacity: max(1, array.count + padding))
                blocks.append(UnsafeMutableRawPointer(memory))
                array.withUnsafeBufferPointer { if let base = $0.baseAddress { memory.initialize(from: base, count: array.count) } }
                return memory
            }
            let (directStarts, directEntries) = Tables.buckets(direct, always: always, pool: &pool)
            let (describedStarts, describedEntries) = Tables.buckets(described, always: [], pool: &pool)
            storage.zeroed = [UnsafeMutableRawPointer(directStarts), UnsafeMutableRawPointer(describedStarts)]
            alwaysCount = always.count
            var mayStart = [Bool](repeating: !always.isEmpty, count: 256)
            for (_, leads, _) in direct { for lead in leads { mayStart[Int(lead.bytes[0])] = true } }
            if !described.isEmpty { mayStart[Int(UInt8(ascii: "<"))] = true }
            bucketStarts = directStarts
            entries = copy(directEntries)
            self.describedStarts = describedStarts
            self.describedEntries = copy(describedEntries)
            let padded = copy(pool, padding: 16)
            (padded + pool.count).initialize(repeating: 0, count: 16)
            self.pool = padded
            self.textsOfSlot = copy(textsOfSlot)
            slotTotal = textsOfSlot.count - 1
            self.requiredTexts = copy(requiredTexts)
            mayStartTable = copy(mayStart)
            hasDescribed = !described.isEmpty
            // The one-pass look for required texts (`cbytescan_required_present`): the slots of
            // the rules tried everywhere, under 64.
            var scanned: [(bytes: [UInt8], slot: Int)] = []
            let scannedCount = min(64, always.count)
            scannedSlots = scannedCount == 64 ? UInt64.max : (1 << UInt64(scannedCount)) - 1
            for slot in 0..<scannedCount {
                for text in requiredTexts[Int(textsOfSlot[slot])..<Int(textsOfSlot[slot + 1])] {
                    scanned.append((Array(pool[Int(text.start)..<Int(text.start + text.length)]), slot))
                }
            }
            let scan = RequiredTextScan(scanned)
            storage.scan = scan
            requiredScan = scan.tables
            storage.memory = blocks
        }

        /// Texts shorter than this are not looked for by a rule filed under a lead (see
        /// `Entry.slot`): they stand in most messages.
        static let requiredTextLength = 6

        /// Whether a rule filed as `filing` (not tried everywhere) has a slot: every match of it
        /// contains one of texts longer than its leads, none shorter than `requiredTextLength`.
        private static func looksForRequiredTexts(_ filing: PatternFiling) -> Bool {
            guard let required = filing.required.map(\.count).min(), required >= requiredTextLength,
                  let lead = (filing.direct + filing.described).map(\.bytes.count).min() else { return false }
            return lead < required
        }

        /// The buckets of `filed` (rule numbers in order, each with its prefixes, none empty,
        /// and its slot) with `always` merged into each: starts and ends by key (see
        /// `bucketStarts`), in memory from `Storage.zeroedTable`, and the entries. Prefixes are
        /// added to `pool`.
        private static func buckets(_ filed: [(Int, [PatternFiling.Lead], slot: Int16)], always: [Entry], pool: inout [UInt8])
            -> (UnsafeMutablePointer<Int32>, [Entry]) {
            // Two-byte and longer prefixes by key; one-byte prefixes by their byte, standing
            // under every key that begins with it.
            var pairs: [(key: Int, entry: Entry)] = []
            var singleBytes = [[Entry]](repeating: [], count: 256)
            for (rule, leads, slot) in filed {
                for lead in leads {
                    let prefix = lead.bytes
                    let entry = Entry(rule: Int32(rule), start: Int32(pool.count), length: Int32(prefix.count), sure: lead.sure, slot: slot)
                    pool += prefix
                    if prefix.count == 1 {
                        singleBytes[Int(prefix[0])].append(entry)
                    } else {
                        pairs.append((Int(prefix[0]) << 8 | Int(prefix[1]), entry))
                    }
                }
            }
            // Stable: each key's entries stay in rule order. Sorted as integers, a pair's key and
            // place in one: cheaper than tuples compared through a closure.
            let order = pairs.indices.map { pairs[$0].key << 32 | $0 }.sorted()
            pairs = order.map { pairs[$0 & 0xFFFF_FFFF] }
            // Every key first offers only the rules tried everywhere: the list at the start of
            // `entries`, which a key's zeros stand for (an end is kept less `always.count`), so
            // that the keys no prefix starts with are never written: the table is mapped from
            // the system, zeroed, and costs only the pages its prefixes' keys lie on (calloc
            // would clear the half megabyte). (No closures here: a variable a closure captures
            // is boxed.)
            var entries = always
            let alwaysCount = Int32(always.count)
            let starts = Storage.zeroedTable(count: 2 * keyCount)
            // A byte's one-byte prefixes, under every key that begins with it: one list they share.
            for first in 0..<256 where !singleBytes[first].isEmpty {
                let bucket = merged(singleBytes[first], always)
                let start = Int32(entries.count)
                entries += bucket
                for key in ((first << 8)..<((first + 1) << 8)) + [singles + first] {
                    starts[2 * key] = start
                    starts[2 * key + 1] = start + Int32(bucket.count) - alwaysCount
                }
            }
            // Keys with longer prefixes: a list of their own.
            var next = 0
            while next < pairs.count {
                let key = pairs[next].key
                var own: [Entry] = []
                while next < pairs.count, pairs[next].key == key {
                    own.append(pairs[next].entry)
                    next += 1
                }
                let bucket = merged(own, singleBytes[key >> 8], always)
                starts[2 * key] = Int32(entries.count)
                entries += bucket
                starts[2 * key + 1] = Int32(entries.count) - alwaysCount
            }
            return (starts, entries)
        }

        /// The entries of `lists`, each in rule order, in rule order: a rule's entries side by side,
        /// its sure ones first (the walk offers a rule once, by the first of its texts that stands).
        private static func merged(_ lists: [Entry]...) -> [Entry] {
            // By rule, its sure entries first, then as given: an entry's rule, sureness and place
            // in one integer (rules and places are under 2^31 and 2^32).
            let all = Array(lists.joined())
            let order = all.indices.map { Int(all[$0].rule) << 33 | (all[$0].sure ? 0 : 1 << 32) | $0 }.sorted()
            return order.map { all[$0 & 0xFFFF_FFFF] }
        }

        /// The key of `position` in `subject` (see `singles`).
        @inline(__always)
        private static func key(_ subject: UnsafeRawBufferPointer, at position: Int) -> Int {
            let left = subject.count - position
            if left >= 2 { return Int(subject[position]) << 8 | Int(subject[position + 1]) }
            return left == 1 ? singles + Int(subject[position]) : singles + 256
        }

        /// Whether any rule may start at `position` of `subject`, told by its byte (false means
        /// `next` offers none there).
        @inline(__always)
        func mayStart(in subject: UnsafeRawBufferPointer, at position: Int) -> Bool {
            position >= subject.count || mayStartTable[Int(subject[position])]
        }

        /// The walk over the rules that may match at `position` of `subject`.
        @inline(__always)
        func cursor(in subject: UnsafeRawBufferPointer, at position: Int) -> Cursor {
            let key = Tables.key(subject, at: position)
            let direct = Int(bucketStarts[2 * key])
            let directEnd = Int(bucketStarts[2 * key + 1]) + alwaysCount
            // Only a line that starts with `<` can hold a description.
            if hasDescribed, position < subject.count, subject[position] == UInt8(ascii: "<"),
               let after = RuleIndex.descriptionEnd(in: subject, at: position) {
                let described = Tables.key(subject, at: after)
                var close = after
                while subject[close - 1] != UInt8(ascii: ">") { close -= 1 }
                return Cursor(direct: direct, directEnd: directEnd, described: Int(describedStarts[2 * described]),
                              describedEnd: Int(describedStarts[2 * described + 1]), afterDescription: after,
                              plainSeparators: RuleIndex.plainSeparators(in: subject, from: close, to: after))
            }
            return Cursor(direct: direct, directEnd: directEnd, described: 0, describedEnd: 0, afterDescription: -1, plainSeparators: false)
        }

        /// The next rule, in rule order, that may match at `position` of `subject` (each rule
        /// once); nil when none is left. `cursor` comes from `cursor(in:at:)` for the same
        /// position, `absence` is kept for the whole of one subject.
        ///
        /// A cursor rather than a search that calls back: the caller runs each rule's pattern in
        /// a loop of its own, with no generic, throwing closure and no retains around its
        /// context.
        @inline(__always)
        func next(_ cursor: inout Cursor, in subject: UnsafeRawBufferPointer, at position: Int, _ absence: inout Absence) -> Candidate? {
            while true {
                let fromDirect = cursor.direct < cursor.directEnd ? entries[cursor.direct].rule : Int32.max
                let fromDescribed = cursor.described < cursor.describedEnd ? describedEntries[cursor.described].rule : Int32.max
                let worth: Bool
                let rule: Int32
                let sure: Bool
                let slot: Int16
                if fromDirect <= fromDescribed {
                    guard fromDirect != Int32.max else { return nil }
                    let entry = entries[cursor.direct]
                    cursor.direct += 1
                    rule = fromDirect
                    guard rule != cursor.tried else { continue }
                    worth = entry.length >= 0 ? starts(subject, at: position, with: entry) : isPossible(slot: Int(entry.start), in: subject, &absence)
                    sure = entry.sure
                    slot = entry.slot
                } else {
                    let entry = describedEntries[cursor.described]
                    cursor.described += 1
                    rule = fromDescribed
                    guard rule != cursor.tried else { continue }
                    worth = starts(subject, at: cursor.afterDescription, with: entry)
                    sure = entry.sure && cursor.plainSeparators
                    slot = entry.slot
                }
                guard worth else { continue }
                // A lead that is not sure, of a rule whose required texts are longer: only where
                // one of them stands.
                if !sure, slot >= 0, !isPossible(slot: Int(slot), in: subject, &absence) { continue }
                cursor.tried = rule
                return Candidate(rule: Int(rule), sure: sure)
            }
        }

        /// Whether `entry`'s prefix stands at `position`. Compared a word at a time, not by a call
        /// to memcmp: up to 16 bytes as two words where the subject has 16 bytes left (the pool
        /// is padded to be read so); a longer text (whole phrases, up to
        /// `LeadingBytes.prefixLimit`) word by word, its last word overlapping the one before.
        /// Small enough to be inlined in the walk, which asks it of nearly every candidate (the
        /// masks are worked out by shifts, with no overflow checks).
        @inline(__always)
        private func starts(_ subject: UnsafeRawBufferPointer, at position: Int, with entry: Entry) -> Bool {
            let length = Int(entry.length)
            let left = subject.count &- position
            guard let base = subject.baseAddress else { return false }
            let text = base + position
            let prefix = UnsafeRawPointer(pool + Int(entry.start))
            guard length <= 16, left >= 16 else { return length <= left && Tables.same(text, prefix, length) }
            let low = text.loadUnaligned(as: UInt64.self) ^ prefix.loadUnaligned(as: UInt64.self)
            let high = (text + 8).loadUnaligned(as: UInt64.self) ^ (prefix + 8).loadUnaligned(as: UInt64.self)
            // Little-endian: byte n of a word is its bits 8n to 8n + 7. A prefix has 1 to 16 bytes.
            let lowMask = UInt64.max &>> UInt64(64 &- 8 &* min(length, 8))
            let highMask: UInt64 = length > 8 ? UInt64.max &>> UInt64(128 &- 8 &* length) : 0
            return low & lowMask | high & highMask == 0
        }

        /// Whether `length` bytes at `text` and `prefix` are the same: a text of up to 16 bytes
        /// near the subject's end by memcmp, a longer one (whole phrases, up to
        /// `LeadingBytes.prefixLimit`) a word at a time, its last word overlapping the one before.
        /// Kept out of the walk so that `starts` stays small there.
        @inline(never)
        private static func same(_ text: UnsafeRawPointer, _ prefix: UnsafeRawPointer, _ length: Int) -> Bool {
            guard length > 16 else { return memcmp(text, prefix, length) == 0 }
            var offset = 0
            while offset + 8 < length {
                guard text.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == prefix.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                else { return false }
                offset += 8
            }
            return text.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self) == prefix.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
        }

        /// Whether the rule in `slot` may match in `subject`: false when none of its required
        /// texts is there.
        @inline(__always)
        private func isPossible(slot: Int, in subject: UnsafeRawBufferPointer, _ absence: inout Absence) -> Bool {
            guard slot < 64 else { return true }
            let bit: UInt64 = 1 << UInt64(slot)
            if absence.checked & bit == 0 {
                if scannedSlots & bit != 0 {
                    // Every such slot's texts at once, the first time any is asked for: one pass
                    // costs less than a search for each text, even on long records. A slot
                    // without texts (a rule tried everywhere that holds none:
                    // `local-storage-noted`) needs no pass.
                    guard requiredScan.pointee.all & bit != 0 else { return true }
                    absence.checked |= scannedSlots
                    absence.absent |= absences(in: subject).absent & scannedSlots
                } else {
                    absence.checked |= bit
                    if lacksRequiredTexts(slot: slot, in: subject) { absence.absent |= bit }
                }
            }
            return absence.absent & bit == 0
        }

        /// What `subject` lacks of every slot of the rules tried everywhere under 64
        /// (`scannedSlots`), found in one pass over it: the same as `lacksRequiredTexts` of each
        /// (`RequiredTextScanTests` holds them equal).
        /// `narrow`: sixteen bytes a step whatever the processor has (for tests).
        func absences(in subject: UnsafeRawBufferPointer, narrow: Bool = false) -> Absence {
            var absence = Absence()
            absence.checked = UInt64.max
            let slots = requiredScan.pointee.all
            guard slots != 0 else { return absence }
            absence.absent = slots & ~RequiredTextScan.present(in: subject, requiredScan, narrow: narrow)
            return absence
        }

        /// Whether the rule in `slot` lacks its required texts in `subject`, slot by slot (for tests).
        func lacksRequiredTextsOneByOne(slot: Int, in subject: UnsafeRawBufferPointer) -> Bool {
            lacksRequiredTexts(slot: slot, in: subject)
        }

        /// Slots looked for in one pass (for tests).
        var slotCount: Int { scannedSlots.nonzeroBitCount }

        /// Slots under 64 (for tests).
        var allSlotCount: Int { min(64, slotTotal) }

        /// Whether `subject` holds none of the required texts of the rule in `slot` (false when
        /// it has none), slot by slot: the definition `absences` is held to.
        @inline(never)
        private func lacksRequiredTexts(slot: Int, in subject: UnsafeRawBufferPointer) -> Bool {
            let first = Int(textsOfSlot[slot])
            let end = Int(textsOfSlot[slot + 1])
            guard first < end else { return false }
            for index in first..<end {
                let text = requiredTexts[index]
                if RareByteSearch.firstOffset(of: UnsafeRawBufferPointer(start: pool + Int(text.start), count: Int(text.length)),
                                              anchor: Int(text.anchor), in: subject) != nil { return false }
            }
            return true
        }

    }
}
