// Splits a byte source into lines: read(2) into one large reusable buffer, memchr for the
// newlines, byte slices out. No String per line, and every input line is counted once.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One input line, valid only during the call that receives it.
public struct Line {
    /// The line's bytes without its line end (LF, or CR LF).
    public let bytes: UnsafeRawBufferPointer
    /// 1-based line number in its input.
    public let number: Int
    /// The line was longer than the reader keeps; `bytes` holds its start only.
    public let isTruncated: Bool
}

public final class LineReader {
    public struct Limits: Sendable {
        /// Bytes asked of each read(2).
        public var chunkSize: Int
        /// Longest line kept whole; the rest of a longer line is read and dropped.
        public var maxLineLength: Int

        public init(chunkSize: Int = 1 << 20, maxLineLength: Int = 1 << 20) {
            self.chunkSize = max(1, chunkSize)
            self.maxLineLength = max(1, maxLineLength)
        }
    }

    public let limits: Limits
    private let buffer: UnsafeMutableRawBufferPointer
    /// Lines handed out so far in the current input.
    public private(set) var linesRead = 0

    public init(limits: Limits = Limits()) {
        self.limits = limits
        // Room for a whole kept line plus its newline and a full chunk after it.
        self.buffer = .allocate(byteCount: limits.maxLineLength + 1 + limits.chunkSize, alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// What to do when a live input goes quiet: after `milliseconds` without input,
    /// `handler` runs once (then the reader blocks until input comes: no busy loop).
    public struct IdlePolicy {
        public var milliseconds: Int32
        public var handler: () throws -> Void
        public init(milliseconds: Int32, handler: @escaping () throws -> Void) {
            self.milliseconds = milliseconds
            self.handler = handler
        }
    }

    /// Reads `source` to its end, calling `body` for each line in order. A last line
    /// without a newline is still a line. Lines are numbered from 1 for each source.
    /// `chunkEnd` runs after the lines of each read(2) have been handed out, before the next
    /// read, which may wait: the moment to pass on what has been gathered.
    public func readLines<Source: ByteSource>(
        from source: inout Source,
        idle: IdlePolicy? = nil,
        chunkEnd: () throws -> Void = {},
        _ body: (Line) throws -> Void
    ) throws {
        linesRead = 0
        guard let base = buffer.baseAddress else { return }
        var start = 0          // first byte of the current (unfinished) line
        var end = 0            // end of valid data
        var skippingRest = false  // inside an overlong line already handed out
        var idleHandled = false

        while true {
            if start > 0 {
                // Keep the unfinished line at the front so the buffer never grows.
                if end > start { memmove(base, base + start, end - start) }
                end -= start
                start = 0
            }
            if let idle, !idleHandled, !source.waitForInput(milliseconds: idle.milliseconds) {
                try idle.handler()
                idleHandled = true
            }
            let room = buffer.count - end
            let count: Int
            do {
                count = try source.read(into: UnsafeMutableRawBufferPointer(start: base + end, count: min(room, limits.chunkSize)))
            } catch {
                // Keep what arrived of the line the failure cut, and name that line.
                var located = error
                if end > start, !skippingRest {
                    try emit(base, from: start, to: end, truncated: false, body)
                    located.line = linesRead
                } else {
                    located.line = linesRead + 1
                }
                throw located
            }
            if count == 0 { break }
            idleHandled = false
            var scan = end
            end += count

            while scan < end, let found = memchr(base + scan, 0x0A, end - scan) {
                let newline = base.distance(to: found)
                if skippingRest {
                    skippingRest = false
                } else {
                    try emit(base, from: start, to: newline, truncated: false, body)
                }
                start = newline + 1
                scan = start
            }

            if skippingRest {
                start = end  // drop what is left of the overlong line
            } else if end - start > limits.maxLineLength {
                try emit(base, from: start, to: start + limits.maxLineLength, truncated: true, body)
                skippingRest = true
                start = end
            }
            try chunkEnd()
        }
        if end > start, !skippingRest {
            try emit(base, from: start, to: end, truncated: false, body)
        }
    }

    private func emit(
        _ base: UnsafeMutableRawPointer, from start: Int, to end: Int, truncated: Bool,
        _ body: (Line) throws -> Void
    ) throws {
        // A line that arrived whole in one chunk can still be over the limit: cut it alike.
        let truncated = truncated || end - start > limits.maxLineLength
        var stop = truncated ? start + limits.maxLineLength : end
        if !truncated, stop > start, base.load(fromByteOffset: stop - 1, as: UInt8.self) == 0x0D { stop -= 1 }
        linesRead += 1
        try body(Line(bytes: UnsafeRawBufferPointer(start: base + start, count: stop - start), number: linesRead, isTruncated: truncated))
    }
}
