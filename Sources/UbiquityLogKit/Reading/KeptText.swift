/// A header text's bytes, kept to tell whether a later record's is the same: the summary's and
/// the reporters' "the same process as the last record?", asked for every record. A text of up
/// to 16 bytes (a process's name, nearly always) is held as two words and compared as two words
/// loaded where the record holds it: a `ByteBuffer` and memcmp, through closures, cost too
/// much for a question asked of every record.
struct KeptText: Sendable {
    private var first: UInt64 = 0
    private var last: UInt64 = 0
    /// -1: nothing kept.
    private var count = -1
    /// A text longer than 16 bytes (nil, and nothing to retain on a copy, for a shorter one).
    private var long: [UInt8]?

    /// Nothing kept: matches no text.
    init() {}

    init(_ bytes: UnsafeRawBufferPointer) {
        count = bytes.count
        if count > 16 { long = Array(bytes) } else { (first, last) = KeptText.words(bytes) }
    }

    /// The kept text as a key of a table, when it is 16 bytes or shorter (`words` then tell
    /// every such text apart); nil for a longer one or none.
    struct Key: Hashable {
        let first: UInt64, last: UInt64, count: Int

        init(first: UInt64, last: UInt64, count: Int) {
            self.first = first
            self.last = last
            self.count = count
        }

        /// The key of `bytes`; nil when they are longer than 16 bytes.
        @inline(__always)
        init?(_ bytes: UnsafeRawBufferPointer) {
            guard bytes.count <= 16 else { return nil }
            (first, last) = KeptText.words(bytes)
            count = bytes.count
        }
    }
    var key: Key? { count >= 0 && count <= 16 ? Key(first: first, last: last, count: count) : nil }

    /// The text whose key is `key`.
    init(_ key: Key) {
        (first, last, count) = (key.first, key.last, key.count)
    }

    /// Whether the kept text is the one whose key is `key` (three integers compared).
    @inline(__always)
    func matches(_ key: Key) -> Bool { count == key.count && first == key.first && last == key.last }

    func matches(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count == count else { return false }
        guard count > 16 else { return KeptText.words(bytes) == (first, last) }
        return long?.withUnsafeBytes { $0.elementsEqual(bytes) } ?? false
    }

    /// Up to 16 bytes as two words that, with the count, tell them apart: the first and the last
    /// eight (overlapping), or four, or the first, middle and last byte. Reads no byte outside them.
    @inline(__always)
    private static func words(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        guard let base = bytes.baseAddress else { return (0, 0) }
        let count = bytes.count
        if count >= 8 { return (base.loadUnaligned(as: UInt64.self), base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)) }
        if count >= 4 { return (UInt64(base.loadUnaligned(as: UInt32.self)), UInt64(base.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))) }
        guard count > 0 else { return (0, 0) }
        let bytes = UInt64(base.load(as: UInt8.self)) | UInt64(base.load(fromByteOffset: count / 2, as: UInt8.self)) << 8
            | UInt64(base.load(fromByteOffset: count - 1, as: UInt8.self)) << 16
        return (bytes, 0)
    }
}
