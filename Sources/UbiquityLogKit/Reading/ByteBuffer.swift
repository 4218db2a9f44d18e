// Bytes appended through a pointer: a record's text is gathered line by line, and JSON Lines
// output writes a few dozen pieces per record (keys, numbers, runs of text between escapes).
// Not an Array: its append takes a generic path for each piece, too costly at dozens of
// pieces a record; here a piece is a capacity check and a copy.

/// A growable run of bytes with value semantics: a copy shares the storage until either
/// side appends (copy on write), as an Array's does. Package-wide for the floor probe
/// (`ParselogsDevTools`), which gathers messages as the assembler does.
package struct ByteBuffer {
    private final class Storage {
        let base: UnsafeMutablePointer<UInt8>
        let capacity: Int
        var count = 0

        init(capacity: Int) {
            self.capacity = capacity
            base = .allocate(capacity: capacity)
        }

        deinit { base.deallocate() }
    }

    private var storage = Storage(capacity: 256)

    package init() {}

    var count: Int { storage.count }
    var isEmpty: Bool { storage.count == 0 }

    /// The bytes written so far, for `body` only.
    package func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: storage.base, count: storage.count))
    }

    var array: [UInt8] { withBytes { Array($0) } }

    /// Empties the buffer, keeping its room (up to `limit` bytes of it: a buffer grown for a
    /// huge record gives its room back).
    package mutating func removeAll(keepingRoomUpTo limit: Int = .max) {
        if storage.capacity > limit {
            storage = Storage(capacity: 256)
        } else if isKnownUniquelyReferenced(&storage) {
            storage.count = 0
        } else {
            storage = Storage(capacity: storage.capacity)
        }
    }

    package mutating func append(_ byte: UInt8) {
        room(1).pointee = byte
        storage.count += 1
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        room(bytes.count).initialize(from: source, count: bytes.count)
        storage.count += bytes.count
    }

    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        UnsafeMutableRawPointer(room(bytes.count)).copyMemory(from: source, byteCount: bytes.count)
        storage.count += bytes.count
    }

    mutating func append(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { append($0) } }

    mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func append(string text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Drops the last `count` bytes (a line written into the output's buffer that must be
    /// written again otherwise).
    mutating func removeLast(_ count: Int) {
        precondition(count >= 0 && count <= storage.count, "removed more than was written")
        guard count > 0 else { return }
        if !isKnownUniquelyReferenced(&storage) { reallocate(0) }
        storage.count -= count
    }

    /// Lets `body` write at most `limit` bytes at the end through a pointer, with one check of
    /// room for them all; `body` returns how many it wrote.
    mutating func write(atMost limit: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        let written = body(room(limit))
        precondition(written >= 0 && written <= limit, "wrote past the room asked for")
        storage.count += written
    }

    /// Where `extra` more bytes go, in storage this value holds alone.
    @inline(__always)
    private mutating func room(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        if storage.count + extra > storage.capacity || !isKnownUniquelyReferenced(&storage) { reallocate(extra) }
        return storage.base + storage.count
    }

    @inline(never)
    private mutating func reallocate(_ extra: Int) {
        let count = storage.count
        // Grown only when full: a copy made because the storage is shared keeps its room.
        let needed = count + extra
        let grown = Storage(capacity: needed > storage.capacity ? max(storage.capacity * 2, needed) : storage.capacity)
        grown.base.initialize(from: storage.base, count: count)
        grown.count = count
        storage = grown
    }
}
