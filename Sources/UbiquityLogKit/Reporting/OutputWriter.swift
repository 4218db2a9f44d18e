// Buffered output to a file descriptor, with write(2). A reader that went away (`| head`,
// EPIPE) is remembered rather than fatal: the run stops reading and ends quietly. Any other
// failure (a full disk, a closed or read-only descriptor, an I/O error) is remembered with
// its reason, so that the command can say so and end with status 2, as grep does: output
// that was lost must never pass for a run that succeeded.
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
    /// How lines written are kept from being read as GitHub workflow commands: log text
    /// printed in a CI step must command nothing, and the runner's older parser reads
    /// `##[command]` anywhere in a line. (Read for every line: no run-time exclusivity check.)
    @exclusivity(unchecked) public var workflowCommands = WorkflowCommandGuard.passed

    public enum WorkflowCommandGuard: Sendable {
        /// Lines go out as they are (the GitHub reporter's own commands; formats whose
        /// escaping covers it).
        case passed
        /// `GitHubEscaping.inertLine`: `##[` and a line-leading `::` written with `\xNN`.
        case inertText
        /// `GitHubEscaping.inertJSONLine`: `##[` written with a JSON escape.
        case inertJSON
    }
    /// Nothing more can be written: the reader went away, or writing failed (`failure`).
    /// (Read after every record, by the thread that writes: Swift's run-time exclusivity
    /// check is left out. A getter in front of the stored flag: another module reading a
    /// stored property makes the check itself, attribute or not.)
    public var isClosed: Bool { closed }
    @exclusivity(unchecked) private var closed = false
    /// Why writing failed (errno), when it was not the reader going away (EPIPE) nor the
    /// output being given up after an interruption.
    public private(set) var failure: Int32?

    public init(descriptor: Int32, capacity: Int = 1 << 16, lineBuffered: Bool = false) {
        self.descriptor = descriptor
        self.capacity = capacity
        self.lineBuffered = lineBuffered
    }

    deinit { flush() }

    public static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// The failure, as a person reads it ("No space left on device"), or nil.
    public var failureDescription: String? { failure.map { String(cString: strerror($0)) } }

    public func write(_ text: String) {
        guard !isClosed else { return }
        buffer.append(string: text)
        if buffer.count >= capacity { flush() }
    }

    /// Writes `text` and a newline.
    public func line(_ text: String = "") {
        guard !isClosed else { return }
        switch workflowCommands {
        case .passed: buffer.append(string: text)
        case .inertText: buffer.append(string: GitHubEscaping.inertLine(text))
        case .inertJSON: buffer.append(string: GitHubEscaping.inertJSONLine(text))
        }
        buffer.append(0x0A)
        if lineBuffered || buffer.count >= capacity { flush() }
    }

    /// Writes `bytes` (text already) and a newline.
    public func line(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { line(bytes: $0) }
    }

    /// Writes the line `body` appends to the buffer it is given, and a newline: the line is
    /// built where it goes, not built apart and copied (for a record of 4 MiB of control bytes,
    /// written as `\u0001` each, a copy would be a second buffer of the line's 12 MB). `body`
    /// returns false when it knows the line holds no workflow command (`GitHubEscaping.mayCommand`
    /// is false), true when it may: only then is the line looked at again.
    func line(writing body: (inout ByteBuffer) -> Bool) {
        guard !isClosed else { return }
        let start = buffer.count
        if body(&buffer), workflowCommands != .passed {
            let written = buffer.withBytes { bytes -> String? in
                let line = UnsafeBufferPointer(rebasing: bytes[start...])
                return GitHubEscaping.mayCommand(line) ? String(decoding: line, as: UTF8.self) : nil
            }
            if let written {
                buffer.removeLast(buffer.count - start)
                buffer.append(string: workflowCommands == .inertJSON ? GitHubEscaping.inertJSONLine(written) : GitHubEscaping.inertLine(written))
            }
        }
        buffer.append(0x0A)
        if lineBuffered || buffer.count >= capacity { flush() }
    }

    func line(bytes: UnsafeBufferPointer<UInt8>) {
        guard !isClosed else { return }
        if workflowCommands != .passed, GitHubEscaping.mayCommand(bytes) {
            let text = String(decoding: bytes, as: UTF8.self)
            buffer.append(string: workflowCommands == .inertJSON ? GitHubEscaping.inertJSONLine(text) : GitHubEscaping.inertLine(text))
        } else {
            buffer.append(bytes)
        }
        buffer.append(0x0A)
        if lineBuffered || buffer.count >= capacity { flush() }
    }

    public func flush() {
        guard !isClosed, !buffer.isEmpty else { buffer.removeAll(); return }
        buffer.withBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            writeAll(base, bytes.count)
        }
        buffer.removeAll()
    }

    /// After an interruption, how long the output may take no bytes before it is given up
    /// (a reader that has stopped reading must not keep the run from ending).
    static let interruptedPatienceMilliseconds: Int32 = 1000
    /// Bytes a pipe takes without blocking once poll(2) reports room: the C library's
    /// PIPE_BUF (4,096 on Linux, 512 on macOS; more may block with a stalled reader).
    private static let atomicPipeWrite = Int(PIPE_BUF)

    private func writeAll(_ base: UnsafePointer<UInt8>, _ count: Int) {
        var offset = 0
        while offset < count {
            let interrupted = Interruption.requested
            // Once interrupted, write only what the descriptor takes at once, after poll(2)
            // says it takes something: a blocking write(2) to a stalled reader would never
            // return, and the signal that could end it has already come.
            if interrupted, !waitUntilWritable(milliseconds: Self.interruptedPatienceMilliseconds) {
                closed = true
                return
            }
            let length = interrupted ? min(count - offset, Self.atomicPipeWrite) : count - offset
            let written = systemWrite(descriptor, base + offset, length)
            if written > 0 {
                offset += written
                continue
            }
            let code = written < 0 ? errno : EIO
            switch code {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                // A non-blocking descriptor (set so by whoever shares it) that is full: wait
                // for room, rather than dropping the rest.
                if !waitUntilWritable(milliseconds: Interruption.requested ? Self.interruptedPatienceMilliseconds : -1) {
                    closed = true
                    return
                }
            case EPIPE:
                closed = true  // the reader is gone: a quiet end
                return
            default:
                closed = true
                failure = code
                return
            }
        }
    }

    /// Waits until the descriptor takes bytes (or reports an error, which the next write(2)
    /// reads); false when `milliseconds` passed without (never, for -1).
    private func waitUntilWritable(milliseconds: Int32) -> Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        while true {
            let ready = poll(&request, 1, milliseconds)
            if ready > 0 { return true }
            if ready == 0 { return false }
            if errno == EINTR {
                // Ctrl-C while waiting without end: wait again, with a limit now.
                if milliseconds < 0, Interruption.requested { return waitUntilWritable(milliseconds: Self.interruptedPatienceMilliseconds) }
                continue
            }
            return true  // poll itself failed: let write(2) say why
        }
    }
}
