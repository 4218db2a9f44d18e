// The one-line progress of a long read, on standard error: bytes read, share of the file and
// rate, redrawn at most four times a second and erased before anything else is written there.
// Whether to show it at all is the command's choice (a terminal, a large file, not a CI format).
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

public final class ReadProgress {
    /// How the line may be drawn on the terminal.
    public struct Style: Sendable {
        /// Erase with the terminal's escape (`ESC [2K`); false on a dumb terminal (`TERM=dumb`),
        /// where the line is written over with blanks after a carriage return.
        public var escapes: Bool
        /// Dim the line; false when colour is off (`NO_COLOR`).
        public var dim: Bool

        public init(escapes: Bool, dim: Bool) {
            self.escapes = escapes
            self.dim = dim
        }
    }

    /// Files at least this large are worth a progress line; compressed ones from `gzipThreshold`.
    public static let threshold: Int64 = 4 << 20
    public static let gzipThreshold: Int64 = 1 << 20
    /// Nanoseconds between two drawings at least.
    static let interval: Int64 = 250_000_000

    private let output: Int32
    private let file: Int32
    private let size: Int64
    private let name: String
    private let isGzip: Bool
    private let style: Style
    private let started: Int64
    private var lastDrawn: Int64
    private var decompressed: Int64 = 0
    /// Characters of the line on screen (0: none).
    private var shownWidth = 0

    /// `file` is the input's descriptor: its position is how far the file has been read (the
    /// compressed bytes, for gzip); `size` its size.
    public init(output: Int32 = 2, file: Int32, size: Int64, name: String, isGzip: Bool, style: Style) {
        self.output = output
        self.file = file
        self.size = max(1, size)
        self.name = name
        self.isGzip = isGzip
        self.style = style
        started = Self.now()
        // The first read draws the line at once: a long read shows it is under way from its start.
        lastDrawn = started - Self.interval
    }

    /// Whether a file of `size` bytes gets a progress line.
    public static func isWorthShowing(size: Int64, isGzip: Bool) -> Bool {
        size >= (isGzip ? gzipThreshold : threshold)
    }

    /// `bytes` more were read; draws the line when the last drawing is old enough.
    func advance(_ bytes: Int) {
        decompressed += Int64(bytes)
        let now = Self.now()
        guard now - lastDrawn >= Self.interval else { return }
        lastDrawn = now
        draw(elapsed: now - started)
    }

    /// Takes the line off the screen, when one is shown.
    public func erase() {
        guard shownWidth > 0 else { return }
        send(style.escapes ? "\r\u{1B}[2K" : "\r" + String(repeating: " ", count: shownWidth) + "\r")
        shownWidth = 0
    }

    /// `parselogs: reading big.log: 41.9 of 200.0 MB (21%), 83.6 MB/s`
    func line(position: Int64, elapsedNanoseconds: Int64) -> String {
        let read = min(max(0, position), size)
        let percent = read * 100 / size
        let seconds = max(Double(elapsedNanoseconds) / 1e9, 0.001)
        var text = "parselogs: reading \(ByteText.terminalSafe(name)): \(Self.megabytes(read)) of \(Self.megabytes(size)) MB (\(percent)%)"
        text += ", \(Self.megabytes(Int64(Double(read) / seconds))) MB/s"
        if isGzip { text += ", \(Self.megabytes(decompressed)) MB of text" }
        return text
    }

    private func draw(elapsed: Int64) {
        let position = Int64(lseek(file, 0, SEEK_CUR))
        guard position >= 0 else { return }
        let text = line(position: position, elapsedNanoseconds: elapsed)
        let width = text.count
        var drawn = "\r"
        if style.escapes { drawn += "\u{1B}[2K" }
        drawn += style.dim ? "\u{1B}[2m" + text + "\u{1B}[0m" : text
        if !style.escapes, width < shownWidth { drawn += String(repeating: " ", count: shownWidth - width) }
        send(drawn)
        shownWidth = max(width, style.escapes ? width : shownWidth)
    }

    /// `12.3`: megabytes (10^6 bytes) with one decimal.
    static func megabytes(_ bytes: Int64) -> String {
        let tenths = (bytes + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10)"
    }

    private func send(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(output, $0.baseAddress! + offset, $0.count - offset) }
            if written > 0 { offset += written } else if written < 0, errno == EINTR { continue } else { return }
        }
    }

    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}

/// A source whose reads move a `ReadProgress` on.
public struct ProgressSource<Base: ByteSource>: ByteSource {
    private var base: Base
    private let progress: ReadProgress

    public init(_ base: Base, progress: ReadProgress) {
        self.base = base
        self.progress = progress
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        let count = try base.read(into: buffer)
        progress.advance(count)
        return count
    }

    public mutating func waitForInput(milliseconds: Int32) -> Bool { base.waitForInput(milliseconds: milliseconds) }
}
