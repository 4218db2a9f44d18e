// Splits a byte source into lines: read(2) into large reusable chunks of memory, memchr for
// the newlines, byte ranges out. No String per line, and every input line is counted once.
//
// The chunks a line is read into are the ones records keep (`TextChunk`; the lifetime rule is
// in RecordText.swift): the assembler shows a record whose lines lie one after another in a
// chunk as a range of that chunk, so a record's bytes are not copied on their way from read(2)
// to the reporters. Hence this reader never writes over bytes it has handed out: it reads on
// after them, and a line that a chunk's end cuts goes to the start of a fresh chunk.
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
    /// The reader's chunk `bytes` lie in (nil for a line made elsewhere). Where two lines the
    /// reader hands out in turn lie one byte apart in the same chunk, that byte is a newline,
    /// so a record of both is the range from the first's start to the second's end (see
    /// `RecordAssembler`). Unmanaged: the reader keeps it alive for the call, and a strong
    /// reference would be retained and released for every line.
    let chunk: Unmanaged<TextChunk>?
    /// For a truncated line, the last bytes of the part not kept (at most
    /// `LineReader.Limits.tailLength`): where a record's fields come after a long text, as
    /// in an NDJSON event, they are there. Nil for a line kept whole.
    public let tail: UnsafeRawBufferPointer?

    init(bytes: UnsafeRawBufferPointer, number: Int, isTruncated: Bool, chunk: Unmanaged<TextChunk>? = nil,
         tail: UnsafeRawBufferPointer? = nil) {
        self.bytes = bytes
        self.number = number
        self.isTruncated = isTruncated
        self.chunk = chunk
        self.tail = tail
    }
}

public final class LineReader {
    public struct Limits: Sendable {
        /// Bytes asked of each read(2), at most.
        public var chunkSize: Int
        /// Longest line kept whole; the rest of a longer line is read and dropped.
        public var maxLineLength: Int
        /// How much of the end of a longer line is kept beside its start (`Line.tail`).
        public var tailLength: Int

        public init(chunkSize: Int = 1 << 20, maxLineLength: Int = 1 << 20, tailLength: Int = 64 << 10) {
            self.chunkSize = max(1, chunkSize)
            self.maxLineLength = max(1, maxLineLength)
            self.tailLength = max(1, tailLength)
        }
    }

    public let limits: Limits
    /// The chunks lines are read into, reused once no record holds them.
    private var chunks = TextChunks()
    /// Lines handed out so far in the current input.
    public private(set) var linesRead = 0
    /// The start of the overlong line being read, kept until its end is found.
    private var longHead: [UInt8] = []
    /// The last `tailLength` bytes read of the overlong line, oldest first.
    private var longTail: [UInt8] = []

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

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

    /// Where reading stands in the current chunk (offsets from its base).
    private struct Cursor {
        /// The first byte of the current (unfinished) line, as read.
        var start = 0
        /// The end of the bytes read.
        var end = 0
        /// Where the current line's bytes go when handed out: `start` itself, unless lines
        /// before it in this chunk ended in CR LF. Each CR dropped moves the lines after it
        /// one byte towards the chunk's start, with a newline after each, so that a record's
        /// lines still lie one after another (a copy of each line, on CR LF input only).
        var out = 0
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
        try readLines(from: &source, idle: idle, chunkEnd: chunkEnd, takesRuns: false, runs: { _, _, _ in (0, 0) }, body)
    }

    /// Takes lines whole where they lie, before `body` is called for them: given the bytes read
    /// from the next line's start on (lines each ended by a line feed, as read: the input's line
    /// ends are LF), the chunk they lie in and the next line's number, it returns how many of
    /// those bytes and lines it took (none, or whole lines from the start). They are counted as
    /// lines read, and `body` is not called for them.
    typealias RunTaker = (UnsafeRawBufferPointer, Unmanaged<TextChunk>, Int) throws -> (bytes: Int, lines: Int)

    /// `readLines`, with `runs` asked at the lines it may take (see `RunTaker`) when
    /// `takesRuns`. Where it takes none, it is asked again only after more lines the more often
    /// it took none in a row (up to `maxRunPause`): a log with few runs pays little for asking.
    /// (Not an optional closure: that would escape, and the variables it shares with `body`
    /// would be boxed and checked for exclusive access at every line.)
    func readLines<Source: ByteSource>(
        from source: inout Source,
        idle: IdlePolicy? = nil,
        chunkEnd: () throws -> Void = {},
        takesRuns: Bool,
        runs: RunTaker,
        _ body: (Line) throws -> Void
    ) throws {
        linesRead = 0
        // The line read before `runs` is asked next (Int.max: never), and the pause (lines)
        // after its last miss.
        var nextRunAsk = takesRuns ? 0 : Int.max
        var lastPause = 0
        var chunk = chunks.fresh(roomFor: 0)
        var at = Cursor()
        var skippingRest = false  // inside an overlong line, its start kept in `longHead`
        var idleHandled = false
        var lineEnds = LineEnds.undecided

        while true {
            if at.end == chunk.capacity {
                // The chunk is full: the unfinished line moves to a fresh one, where reading
                // goes on. The bytes before it stay as they are, for the records that show them.
                let partial = skippingRest ? 0 : at.end - at.start
                // Room for at least as much again: a line longer than a chunk is copied a
                // bounded number of times on its way to `maxLineLength`.
                let fresh = chunks.fresh(roomFor: partial + max(partial, min(limits.chunkSize, 1 << 16)))
                fresh.base.initialize(from: chunk.base + at.start, count: partial)
                fresh.used = partial
                chunk = fresh
                at = Cursor(start: 0, end: partial, out: 0)
            }
            if let idle, !idleHandled, !source.waitForInput(milliseconds: idle.milliseconds) {
                try idle.handler()
                idleHandled = true
            }
            let count: Int
            do {
                count = try source.read(into: UnsafeMutableRawBufferPointer(
                    start: chunk.base + at.end, count: min(chunk.capacity - at.end, limits.chunkSize)))
            } catch {
                // Keep what arrived of the line the failure cut, and name that line.
                var located = error
                if skippingRest {
                    try emitLong(body)
                    located.line = linesRead
                } else if at.end > at.start {
                    try emit(chunk, &at, to: at.end, truncated: false, body)
                    located.line = linesRead
                } else {
                    located.line = linesRead + 1
                }
                throw located
            }
            let ended = count == 0
            idleHandled = false
            var scan = at.end
            at.end += count
            chunk.used = at.end
            if lineEnds == .undecided, !skippingRest {
                lineEnds = LineEnds(UnsafeRawBufferPointer(start: chunk.base + at.start, count: at.end - at.start),
                                    newFrom: scan - at.start, whole: ended, window: min(LineEnds.window, limits.maxLineLength))
                // Each CR of the line so far is a line end now: its bytes are read again.
                if lineEnds == .cr { scan = at.start }
            }
            // Also in the rest of an overlong line, whose end is a CR like any other line's.
            if lineEnds == .cr { Self.replaceCRs(UnsafeMutableRawBufferPointer(start: chunk.base + scan, count: at.end - scan)) }
            if ended && scan == at.end { break }

            while scan < at.end {
                if _slowPath(linesRead >= nextRunAsk), !skippingRest, lineEnds == .lf, at.out == at.start {
                    let taken = try askRuns(runs, chunk, from: at.start, to: at.end, nextAsk: &nextRunAsk, lastPause: &lastPause)
                    if taken > 0 {
                        at.start += taken
                        at.out = at.start
                        scan = at.start
                        continue
                    }
                }
                guard let found = memchr(chunk.base + scan, 0x0A, at.end - scan) else { break }
                let newline = UnsafeMutableRawPointer(chunk.base).distance(to: found)
                if skippingRest {
                    skippingRest = false
                    keepTail(chunk.base + at.start, count: newline - at.start)
                    try emitLong(body)
                    at.start = newline + 1
                    at.out = at.start
                } else if newline - at.start > limits.maxLineLength {
                    // A line that arrived whole in one chunk can still be over the limit.
                    keepHead(chunk.base + at.start, count: newline - at.start)
                    try emitLong(body)
                    at.start = newline + 1
                    at.out = at.start
                } else {
                    try emit(chunk, &at, to: newline, truncated: false, body)
                }
                scan = at.start
            }

            if skippingRest {
                keepTail(chunk.base + at.start, count: at.end - at.start)
                at.start = at.end  // drop what is left of the overlong line, but its tail
                at.out = at.end
            } else if at.end - at.start > limits.maxLineLength {
                // Handed out once its end is found, with its tail (see `Line.tail`).
                keepHead(chunk.base + at.start, count: at.end - at.start)
                skippingRest = true
                at.start = at.end
                at.out = at.end
            }
            if ended { break }
            try chunkEnd()
        }
        if skippingRest {
            try emitLong(body)
        } else if at.end > at.start {
            try emit(chunk, &at, to: at.end, truncated: false, body)
        }
    }

    /// Asks `runs` for the lines of `chunk` from `start` to `end`; returns the bytes it took,
    /// counts its lines, and sets when to ask next (kept out of the loop over lines, which it
    /// would slow).
    @inline(never)
    private func askRuns(_ runs: RunTaker, _ chunk: TextChunk, from start: Int, to end: Int,
                         nextAsk: inout Int, lastPause: inout Int) throws -> Int {
        let taken = try runs(UnsafeRawBufferPointer(start: chunk.base + start, count: end - start), .passUnretained(chunk), linesRead + 1)
        guard taken.lines > 0 else {
            lastPause = min(2 * lastPause + 1, LineReader.maxRunPause)
            nextAsk = linesRead + 1 + lastPause
            return 0
        }
        linesRead += taken.lines
        // The line the run stopped at is not one it takes.
        nextAsk = linesRead + 1
        lastPause = 0
        return taken.bytes
    }

    /// The most lines handed to `body` between two asks of a `RunTaker` that takes none.
    static let maxRunPause = 63

    /// What ends an input's lines: LF (or CR LF), or CR alone, as the classic Mac OS wrote
    /// text. Told from the input's first `window` + 1 bytes (all of it, when shorter), before
    /// its first line is handed out or cut as overlong: an LF there makes its lone CRs part of
    /// their lines; else a CR there before another byte makes each CR a line end. However the
    /// input is cut into reads, the same bytes tell.
    enum LineEnds {
        case undecided, lf, cr

        /// The first line's bytes read so far, `line` (its bytes from `newFrom` on are new),
        /// and whether they are all the input holds: what they tell, from at most `window` + 1
        /// bytes (`LineEnds.window`, or the longest line when that is less: a first line is
        /// cut past it, and its ends must be known by then).
        init(_ line: UnsafeRawBufferPointer, newFrom: Int, whole: Bool, window: Int = Self.window) {
            self = .undecided
            guard let base = line.baseAddress else {
                if whole { self = .lf }
                return
            }
            let seen = min(line.count, window + 1)
            if newFrom < seen, memchr(base + newFrom, 0x0A, seen - newFrom) != nil {
                self = .lf
            } else if whole || line.count > window {
                // A CR before another byte of the window, which is no LF.
                let cr = memchr(base, 0x0D, seen).map { base.distance(to: UnsafeRawPointer($0)) }
                self = cr.map { $0 + 1 < seen } == true ? .cr : .lf
            }
        }

        /// How many bytes without an LF tell an input's line ends (and one more, the byte after
        /// a CR last among them).
        static let window = 64 << 10
    }

    /// Makes each CR of `bytes` an LF (the whole line so far when CR is first told, then the
    /// bytes of each read).
    private static func replaceCRs(_ bytes: UnsafeMutableRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        var from = 0
        while from < bytes.count, let cr = memchr(base + from, 0x0D, bytes.count - from) {
            cr.storeBytes(of: 0x0A, as: UInt8.self)
            from = base.distance(to: cr) + 1
        }
    }

    /// Starts an overlong line whose bytes from `start` to `end` are read: its first
    /// `maxLineLength` bytes are copied aside, the rest begins its tail.
    private func keepHead(_ start: UnsafeMutablePointer<UInt8>, count: Int) {
        let kept = min(count, limits.maxLineLength)
        longHead.removeAll(keepingCapacity: true)
        longHead.append(contentsOf: UnsafeBufferPointer(start: start, count: kept))
        longTail.removeAll(keepingCapacity: true)
        keepTail(start + kept, count: count - kept)
    }

    /// Adds `count` more bytes of the overlong line to its tail, which keeps the last
    /// `tailLength` of them.
    private func keepTail(_ start: UnsafeMutablePointer<UInt8>, count: Int) {
        guard count > 0 else { return }
        let taken = min(count, limits.tailLength)
        let overflow = longTail.count + taken - limits.tailLength
        if overflow > 0 { longTail.removeFirst(overflow) }
        longTail.append(contentsOf: UnsafeBufferPointer(start: start + (count - taken), count: taken))
    }

    /// Hands out the overlong line whose end was found: its start, cut, and its tail. A trailing
    /// CR (of CR LF) is not part of the tail.
    private func emitLong(_ body: (Line) throws -> Void) throws {
        if longTail.last == 0x0D { longTail.removeLast() }
        linesRead += 1
        try longHead.withUnsafeBytes { head in
            try longTail.withUnsafeBytes { tail in
                try body(Line(bytes: head, number: linesRead, isTruncated: true, tail: tail))
            }
        }
        longHead.removeAll(keepingCapacity: true)
        longTail.removeAll(keepingCapacity: true)
    }

    /// Hands out the line from `at.start` to `end` (a newline, the end of the input, or the
    /// length cap), and moves `at` past it and its newline.
    @inline(__always)
    private func emit(
        _ chunk: TextChunk, _ at: inout Cursor, to end: Int, truncated: Bool,
        _ body: (Line) throws -> Void
    ) throws {
        let base = chunk.base
        // A line that arrived whole in one chunk can still be over the limit: cut it alike.
        let truncated = truncated || end - at.start > limits.maxLineLength
        var stop = truncated ? at.start + limits.maxLineLength : end
        var droppedCR = false
        if !truncated, stop > at.start, base[stop - 1] == 0x0D {
            stop -= 1
            droppedCR = true
        }
        let count = stop - at.start
        let moved = at.out != at.start
        if moved {
            UnsafeMutableRawPointer(base + at.out).copyMemory(from: base + at.start, byteCount: count)
        }
        linesRead += 1
        try body(Line(bytes: UnsafeRawBufferPointer(start: base + at.out, count: count), number: linesRead,
                      isTruncated: truncated, chunk: .passUnretained(chunk)))
        at.start = end + 1
        if truncated {
            // The rest of the line is not kept: the next line lies where it was read.
            at.out = at.start
        } else {
            // A newline after the line where it was handed out, unless its own is there. (No
            // record shows that byte yet: the record this line joins ends with the line.)
            if moved || droppedCR { base[at.out + count] = 0x0A }
            at.out += count + 1
        }
    }
}
