// A record's bytes, where read(2) put them: a range of a shared block of memory (a
// `TextChunk`), not an array of its own: an array costs an allocation, a copy and a free per
// record, and travels through three threads to die on the first. The line reader reads into
// the chunks, and the assembler shows a record as the range its lines lie in (copying into a
// chunk of its own only the rare record whose lines do not lie one after another: see
// `RecordAssembler`).
//
// The lifetime of a record's bytes, for the whole run (reader → classifier → summary →
// reporters, on one thread or three):
//
// - A record's bytes live in a chunk, and every `RecordText` holds a strong reference to its
//   chunk: the bytes live as long as any record (or slice of one) that shows them, whichever
//   thread holds it and for however long (a test keeping every record, a reporter keeping one
//   to the end). Nothing else keeps them; a stage that keeps something past the record's call
//   keeps a copy (a String, an Array) or the record itself.
// - The bytes of a record never change once it is handed out: the reader (and the assembler,
//   in its own chunks) only writes past the bytes it handed out, and writes a chunk from its
//   start again only when nothing but its pool holds it (`TextChunks.fresh`). So a record's
//   bytes can be read on any thread without a lock: they were written before the record was
//   handed over through the pipeline's queues, whose lock orders the writes before the reads.
// - In the run's stages a record is an entry of its batch, which holds each of its chunks
//   once, and the batch goes back to the reading thread when the later stages are done with
//   it (see `RunStages`), and lets go of its chunks there: the reader finds them free again
//   to reuse, without a malloc or a page fault per megabyte. (A stage's lent `Record`
//   holds the chunk of the last record it was lent, until it is lent one in another.)

/// A block of record bytes written by one reader (or assembler), read by any thread (see above).
final class TextChunk: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int
    /// Bytes written so far, from `base`; the reading thread alone reads or changes it.
    var used = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }
}

/// A record's text, or a part of it: bytes with `Int` indices. Like an `ArraySlice`, a slice
/// keeps the indices of the text it was cut from, and the whole text's run from 0.
public struct RecordText: RandomAccessCollection, Hashable, @unchecked Sendable {
    // @unchecked: a pointer is not Sendable, but the bytes it shows never change and `chunk`
    // keeps them alive (see the lifetime rule above).
    /// Keeps the bytes alive.
    let chunk: TextChunk
    /// Where index 0 is: the first byte of the whole text, whatever part of it this shows.
    let origin: UnsafePointer<UInt8>
    public let startIndex: Int
    public let endIndex: Int

    public typealias Index = Int
    public typealias Indices = Range<Int>
    public typealias SubSequence = RecordText
    public typealias Element = UInt8

    /// The bytes `origin[startIndex..<endIndex]` of `chunk`.
    init(chunk: TextChunk, origin: UnsafePointer<UInt8>, bounds: Range<Int>) {
        self.chunk = chunk
        self.origin = origin
        startIndex = bounds.lowerBound
        endIndex = bounds.upperBound
    }

    /// A text of its own holding a copy of `bytes` (records made outside the assembler: NDJSON
    /// messages, tests).
    public init<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let chunk = TextChunk(capacity: bytes.count)
        let written = UnsafeMutableBufferPointer(start: chunk.base, count: bytes.count).initialize(from: bytes).1
        chunk.used = written
        self.init(chunk: chunk, origin: chunk.base, bounds: 0..<written)
    }

    public subscript(position: Int) -> UInt8 {
        precondition(position >= startIndex && position < endIndex, "index out of a record's text")
        return origin[position]
    }

    public subscript(bounds: Range<Int>) -> RecordText {
        precondition(bounds.lowerBound >= startIndex && bounds.upperBound <= endIndex, "range out of a record's text")
        return RecordText(chunk: chunk, origin: origin, bounds: bounds)
    }

    // The index moves as plain integers: the defaults go through the generic
    // `RandomAccessCollection` paths.
    @inline(__always) public func index(after index: Int) -> Int { index + 1 }
    @inline(__always) public func index(before index: Int) -> Int { index - 1 }
    @inline(__always) public func index(_ index: Int, offsetBy distance: Int) -> Int { index + distance }
    @inline(__always) public func distance(from start: Int, to end: Int) -> Int { end - start }
    public var indices: Range<Int> { startIndex..<endIndex }
    public var count: Int { endIndex - startIndex }
    public var isEmpty: Bool { endIndex == startIndex }

    /// The bytes of this text (or part), for `body`'s call only.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(chunk) { try body(UnsafeRawBufferPointer(start: origin + startIndex, count: count)) }
    }

    public func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(chunk) { try body(UnsafeBufferPointer(start: origin + startIndex, count: count)) }
    }

    // Generic algorithms (`String(decoding:)`, `elementsEqual`, `ByteText.string`) take their
    // contiguous fast paths through this.
    public func withContiguousStorageIfAvailable<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result? {
        try withUnsafeBufferPointer(body)
    }

    /// The first `byte` at or after the start, found with memchr.
    public func firstIndex(of byte: UInt8) -> Int? {
        withUnsafeBytes { ByteSearch.firstOffset(of: byte, in: $0, from: 0) }.map { startIndex + $0 }
    }

    public func contains(_ byte: UInt8) -> Bool { firstIndex(of: byte) != nil }

    /// The standard library's `split`, with the same results, finding the separators with
    /// memchr: the generic one steps byte by byte through the subscript, and the timeline's
    /// -vvv lines and unhandled headlines split every record they show.
    public func split(separator: UInt8, maxSplits: Int = Int.max, omittingEmptySubsequences: Bool = true) -> [RecordText] {
        precondition(maxSplits >= 0, "Must take zero or more splits")
        var pieces: [RecordText] = []
        var pieceStart = startIndex
        func append(upTo end: Int) -> Bool {
            if pieceStart == end && omittingEmptySubsequences { return false }
            pieces.append(self[pieceStart..<end])
            return true
        }
        if maxSplits == 0 || isEmpty {
            _ = append(upTo: endIndex)
            return pieces
        }
        withUnsafeBytes { bytes in
            var scan = 0
            while let found = ByteSearch.firstOffset(of: separator, in: bytes, from: scan) {
                let appended = append(upTo: startIndex + found)
                scan = found + 1
                pieceStart = startIndex + scan
                if appended && pieces.count == maxSplits { break }
            }
        }
        if pieceStart != endIndex || !omittingEmptySubsequences { pieces.append(self[pieceStart..<endIndex]) }
        return pieces
    }

    /// Equal bytes are equal texts, wherever they are kept.
    public static func == (lhs: RecordText, rhs: RecordText) -> Bool {
        lhs.count == rhs.count && lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { right in left.elementsEqual(right) } }
    }

    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}

extension RecordText: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: UInt8...) { self.init(elements) }
}

/// The chunks one reader (or assembler) writes into, reused once nothing else holds them.
struct TextChunks {
    /// A chunk's usual size: a batch's worth of records (see `RunStages.batchBytes`).
    static let standardCapacity = 1 << 20
    /// Chunks of the standard size made so far, kept to be reused: at most as many as the
    /// pipeline holds at once, bounded by its queues.
    private var kept: [TextChunk] = []
    private static let keptLimit = 16

    /// A chunk with room for `bytes`, written from its start: a kept one nothing else holds,
    /// else a new one (kept for reuse if of the standard size).
    mutating func fresh(roomFor bytes: Int) -> TextChunk {
        if bytes <= Self.standardCapacity {
            for index in kept.indices where isKnownUniquelyReferenced(&kept[index]) {
                kept[index].used = 0
                return kept[index]
            }
        }
        let chunk = TextChunk(capacity: max(bytes, Self.standardCapacity))
        if chunk.capacity == Self.standardCapacity, kept.count < Self.keptLimit { kept.append(chunk) }
        return chunk
    }
}
