#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Values made from bytes that recur (a header's process, thread and device, a log's logging
/// methods), reused rather than made again. A slot holds one value and its key bytes; a key goes
/// to one of two slots found by a hash of its length, ends and middle, and is checked in full.
/// Keys live in one flat block, so a lookup retains nothing but the value it returns.
final class Recurring<Value> {
    private static var slotCount: Int { 1024 }
    /// Longer keys are made each time: the block stays small whatever a hostile line holds.
    let longest: Int
    private let keys: UnsafeMutableRawPointer
    /// A slot's key length, -1 while it is empty.
    private let lengths: UnsafeMutablePointer<Int>
    private let values: UnsafeMutablePointer<Value?>
    /// Which of a pair of slots the next new value replaces.
    private var evictSecond = false

    init(longest: Int) {
        self.longest = longest
        keys = UnsafeMutableRawPointer.allocate(byteCount: Self.slotCount * longest, alignment: 8)
        lengths = UnsafeMutablePointer<Int>.allocate(capacity: Self.slotCount)
        values = UnsafeMutablePointer<Value?>.allocate(capacity: Self.slotCount)
        lengths.initialize(repeating: -1, count: Self.slotCount)
        values.initialize(repeating: nil, count: Self.slotCount)
    }

    deinit {
        values.deinitialize(count: Self.slotCount)
        values.deallocate()
        lengths.deallocate()
        keys.deallocate()
    }

    /// The value for the key `bytes`: the one made before for the same bytes, or `make()`.
    func value(_ bytes: UnsafeRawBufferPointer, make: () -> Value) -> Value {
        guard bytes.count <= longest, let base = bytes.baseAddress else { return make() }
        let first = Self.slot(bytes)
        func holds(_ slot: Int) -> Bool {
            lengths[slot] == bytes.count && memcmp(keys + slot * longest, base, bytes.count) == 0
        }
        if holds(first), let value = values[first] { return value }
        if holds(first ^ 1), let value = values[first ^ 1] { return value }
        let slot = lengths[first] < 0 || !evictSecond ? first : first ^ 1
        evictSecond.toggle()
        let value = make()
        (keys + slot * longest).copyMemory(from: base, byteCount: bytes.count)
        lengths[slot] = bytes.count
        values[slot] = value
        return value
    }

    private static func slot(_ bytes: UnsafeRawBufferPointer) -> Int {
        SlotHash.slot(SlotHash.mix(bytes, into: UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15), count: Self.slotCount)
    }
}

typealias RecurringTexts = Recurring<String>

extension Recurring<String> {
    convenience init() { self.init(longest: 256) }

    /// The text of `line[range]`.
    func text(_ line: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        let bytes = UnsafeRawBufferPointer(rebasing: line[range])
        return value(bytes) { ByteText.string(bytes) }
    }
}

/// The hash that picks a slot in the tables of recurring texts (`Recurring`, and the header
/// parser's table of a style's texts with a method): a key's bytes mixed in as its two ends and
/// middle, three eight-byte words (or byte by byte when shorter), then the bits spread so that
/// the top ones depend on all of them. Not a hash for hostile keys: a table only caches, and a
/// miss just makes the value again.
enum SlotHash {
    /// `hash` with `bytes` mixed in (their length is not: callers seed `hash` with it).
    @inline(__always)
    static func mix(_ bytes: UnsafeRawBufferPointer, into hash: UInt64) -> UInt64 {
        var hash = hash
        if bytes.count >= 8 {
            hash ^= bytes.loadUnaligned(as: UInt64.self)
            hash = (hash ^ (hash >> 30)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= bytes.loadUnaligned(fromByteOffset: (bytes.count - 8) / 2, as: UInt64.self)
            hash = (hash ^ (hash >> 27)) &* 0x94D0_49BB_1331_11EB
            hash ^= bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)
        } else {
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        }
        return hash
    }

    /// The slot of `hash` among `count` slots (a power of two, at most 1,024).
    @inline(__always)
    static func slot(_ hash: UInt64, count: Int) -> Int {
        var hash = (hash ^ (hash >> 30)) &* 0xBF58_476D_1CE4_E5B9
        hash = (hash ^ (hash >> 27)) &* 0x94D0_49BB_1331_11EB
        // The top bits: a product's high bits depend on every bit of its factors.
        return Int(truncatingIfNeeded: hash >> 54) & (count - 1)
    }
}
