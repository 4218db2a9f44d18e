// Buffered output to a file descriptor, with write(2). A reader that went away (`| head`)
// is remembered rather than fatal: the run stops reading and ends quietly.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }

public final class OutputWriter {
    private let descriptor: Int32
    /// Appended to for every line, by the one thread that writes: Swift's run-time
    /// exclusivity check on each access is left out.
    @exclusivity(unchecked) private var buffer = ByteBuffer()
    private let capacity: Int
    /// Flush after every line (a terminal, or `--line-buffered`). (Read for every line: no
    /// run-time exclusivity check, as for `buffer`.)
    @exclusivity(unchecked) public var lineBuffered: Bool
    /// The reader closed the pipe (EPIPE); nothing more can be written. (Read after every
    /// record, by the thread that writes: Swift's run-time exclusivity check is left out.
    /// A getter in front of the stored flag: another module reading a stored property made
    /// the check itself, attribute or not.)
    public var isClosed: Bool { closed }
    @exclusivity(unchecked) private var closed = false

    public init(descriptor: Int32, capacity: Int = 1 << 16, lineBuffered: Bool = false) {
        self.descriptor = descriptor
        self.capacity = capacity
        self.lineBuffered = lineBuffered
    }

    deinit { flush() }

    public static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    public func write(_ text: String) {
        guard !isClosed else { return }
        buffer.append(string: text)
        if buffer.count >= capacity { flush() }
    }

    /// Writes `text` and a newline.
    public func line(_ text: String = "") {
        write(text)
        buffer.append(0x0A)
        if lineBuffered || buffer.count >= capacity { flush() }
    }

    /// Writes `bytes` (text already) and a newline.
    public func line(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { line(bytes: $0) }
    }

    func line(bytes: UnsafeBufferPointer<UInt8>) {
        guard !isClosed else { return }
        buffer.append(bytes)
        buffer.append(0x0A)
        if lineBuffered || buffer.count >= capacity { flush() }
    }

    public func flush() {
        guard !isClosed, !buffer.isEmpty else { buffer.removeAll(); return }
        var offset = 0
        buffer.withBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            while offset < bytes.count {
                let written = systemWrite(descriptor, base + offset, bytes.count - offset)
                if written > 0 { offset += written; continue }
                if written < 0, errno == EINTR { continue }
                closed = true  // EPIPE or another error: the reader is gone
                return
            }
        }
        buffer.removeAll()
    }
}
