// Texts looked for all at once, in one pass over a subject: which of up to 64 slots have one
// of their texts there. The rule index's rules tried everywhere and the prefilter of the
// channels that read lines without a marker both ask it.
import CByteScan

/// Texts, each standing for one slot (a bit of the answer), laid out for
/// `cbytescan_required_present`: each looked for by its four bytes from one of its least common
/// (`anchor`), all texts at once. Written once, in `init`;
/// read-only after it, so threads may share it.
final class RequiredTextScan: @unchecked Sendable {
    /// The C tables, valid while this lives: a search keeps the pointer, so that it retains
    /// nothing per subject.
    let tables: UnsafePointer<cbytescan_required_texts>
    private var memory: [UnsafeMutableRawPointer] = []

    /// `texts`: each text with its slot, under 64.
    init(_ texts: [(bytes: [UInt8], slot: Int)]) {
        var pool: [UInt8] = []
        var starts: [Int32] = [], lengths: [Int32] = [], anchors: [Int32] = [], slotBits: [UInt64] = [], heads: [UInt64] = []
        var withTexts: UInt64 = 0, withEmpty: UInt64 = 0
        for (bytes, slot) in texts {
            precondition(slot < 64, "a required text's slot is under 64")
            withTexts |= 1 << UInt64(slot)
            if bytes.isEmpty { withEmpty |= 1 << UInt64(slot) }
            starts.append(Int32(pool.count))
            lengths.append(Int32(bytes.count))
            anchors.append(Int32(Self.anchor(of: bytes)))
            heads.append(bytes.count >= 8 ? bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) } : 0)
            slotBits.append(1 << UInt64(slot))
            pool += bytes
        }
        // Texts by their anchor byte, chained in the order given.
        var firstByByte = [Int32](repeating: -1, count: 256)
        var nextText = [Int32](repeating: -1, count: texts.count)
        var anchorBytes: [UInt8] = []
        // Bit `anchor byte << 8 | the byte after it` of each text (see `cbytescan_required_texts`).
        var pairBits = [UInt8](repeating: 0, count: 1 << 13)
        for index in texts.indices.reversed() where lengths[index] > 0 {
            let anchor = Int(starts[index] + anchors[index])
            let byte = Int(pool[anchor])
            if firstByByte[byte] < 0 { anchorBytes.append(UInt8(byte)) }
            nextText[index] = firstByByte[byte]
            firstByByte[byte] = Int32(index)
            let after = anchors[index] + 1 < lengths[index] ? [Int(pool[anchor + 1])] : Array(0..<256)
            for next in after { pairBits[(byte << 8 | next) >> 3] |= 1 << UInt8((byte << 8 | next) & 7) }
        }
        var blocks: [UnsafeMutableRawPointer] = []
        func copy<T>(_ array: [T]) -> UnsafeMutablePointer<T> {
            let copied = UnsafeMutablePointer<T>.allocate(capacity: max(1, array.count))
            blocks.append(UnsafeMutableRawPointer(copied))
            array.withUnsafeBufferPointer { if let base = $0.baseAddress { copied.initialize(from: base, count: array.count) } }
            return copied
        }
        let scan = UnsafeMutablePointer<cbytescan_required_texts>.allocate(capacity: 1)
        blocks.append(UnsafeMutableRawPointer(scan))
        scan.initialize(to: cbytescan_required_texts(pool: UnsafePointer(copy(pool)), start: copy(starts), length: copy(lengths),
                                                     anchor: copy(anchors), slot_bit: copy(slotBits), first_by_byte: copy(firstByByte),
                                                     next_text: copy(nextText), anchor_bytes: copy(anchorBytes),
                                                     anchor_count: anchorBytes.count, all: withTexts & ~withEmpty,
                                                     pair_bits: copy(pairBits), head: copy(heads),
                                                     byte_rank: copy(RareByteSearch.byteRanks),
                                                     nibbles: copy([UInt8](repeating: 0, count: 128)),
                                                     quads: copy([UInt64](repeating: 0, count: 64)), has_quads: 0))
        cbytescan_required_prepare(scan)
        tables = UnsafePointer(scan)
        memory = blocks
    }

    deinit { for block in memory { block.deallocate() } }

    /// The offset of the byte `text` is looked for by: of those followed by another (by three
    /// more, in a text of four bytes or more: the four from it are looked at as one, see
    /// `cbytescan_required_texts.quads`), the least common in logs (`RareByteSearch.byFrequency`),
    /// and of those the one followed by the least common byte; so that the bytes it starts rule
    /// out most places where that byte stands.
    static func anchor(of text: [UInt8]) -> Int {
        guard text.count >= 2 else { return 0 }
        var best = 0, bestRanks = (Int.max, Int.max)
        var rank = RareByteSearch.rank(of: text[0])
        for offset in 0..<(text.count >= 4 ? text.count - 3 : text.count - 1) {
            let next = RareByteSearch.rank(of: text[offset + 1])
            if (rank, next) < bestRanks { (best, bestRanks) = (offset, (rank, next)) }
            rank = next
        }
        return best
    }

    /// The slots of `tables` but those with an empty text (`all`) one of whose texts stands in
    /// `subject`. `narrow`: sixteen bytes a step whatever the processor has (for tests).
    @inline(__always)
    static func present(in subject: UnsafeRawBufferPointer, _ tables: UnsafePointer<cbytescan_required_texts>,
                        narrow: Bool = false) -> UInt64 {
        guard tables.pointee.all != 0, let base = subject.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
        return narrow ? cbytescan_required_present_narrow(base, subject.count, tables) : cbytescan_required_present(base, subject.count, tables)
    }
}
