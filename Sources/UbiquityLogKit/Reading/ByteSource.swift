// Where the bytes of one input come from: a file descriptor (stdin or an opened file)
// or memory (tests). Gzip and the opening of inputs are in LogInput.swift.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Free functions so the calls below do not resolve to the methods of the same names.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
private func systemClose(_ fd: Int32) { _ = close(fd) }

/// Something to read bytes from, in chunks.
public protocol ByteSource {
    /// Reads up to `buffer.count` bytes; 0 means the end of the input.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int
    /// Waits up to `milliseconds` for input to be readable; false when none came in time.
    /// Sources that never wait (files, memory) answer true at once.
    mutating func waitForInput(milliseconds: Int32) -> Bool
}

extension ByteSource {
    public mutating func waitForInput(milliseconds: Int32) -> Bool { true }
}

/// An input that could not be opened or read. Says which input and what to do.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    public let input: String
    public let reason: String
    /// The line the reader had reached, when reading failed part-way.
    public var line: Int?

    public init(input: String, reason: String, line: Int? = nil) {
        self.input = input
        self.reason = reason
        self.line = line
    }

    public var description: String {
        if let line { return "\(input): line \(line): \(reason)" }
        return "\(input): \(reason)"
    }
}

/// Reads a file descriptor with read(2). Owns the descriptor when it opened it.
public struct FileDescriptorSource: ByteSource {
    public let name: String
    public let descriptor: Int32
    private let ownsDescriptor: Bool
    /// Pipes, terminals and sockets can go quiet; regular files cannot.
    private let canStall: Bool

    /// Standard input, named "-" in messages, as in the command line.
    public static func standardInput() -> FileDescriptorSource {
        FileDescriptorSource(name: "<stdin>", descriptor: 0, ownsDescriptor: false)
    }

    /// `mode`: the descriptor's file type (`st_mode`), when the caller has it from fstat(2).
    private init(name: String, descriptor: Int32, ownsDescriptor: Bool, mode: mode_t? = nil) {
        self.name = name
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
        var info = stat()
        let mode = mode ?? (fstat(descriptor, &info) == 0 ? info.st_mode : nil)
        self.canStall = mode.map { $0 & S_IFMT != S_IFREG } ?? true
    }

    /// Opens `path` for reading. A directory or an unreadable file is an `InputError`.
    public init(path: String) throws(InputError) {
        try self.init(path: Array(path.utf8), name: path)
    }

    /// Opens the file whose path is the bytes `path` (a file name need not be UTF-8), named
    /// `name` in messages.
    public init(path: [UInt8], name: String) throws(InputError) {
        let fd = (path + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { path in path.baseAddress.map { open($0, O_RDONLY | O_CLOEXEC) } ?? -1 }
        }
        if fd < 0 { throw InputError(input: name, reason: FileDescriptorSource.explain(errno)) }
        var info = stat()
        let mode = fstat(fd, &info) == 0 ? info.st_mode : nil
        if let mode, mode & S_IFMT == S_IFDIR {
            systemClose(fd)
            throw InputError(input: name, reason: "is a directory, not a log file")
        }
        self.init(name: name, descriptor: fd, ownsDescriptor: true, mode: mode)
    }

    public func close() {
        if ownsDescriptor { systemClose(descriptor) }
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        if Interruption.requested { return 0 }
        while true {
            let count = systemRead(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR {
                if Interruption.requested { return 0 }  // Ctrl-C: end the input here
                continue
            }
            throw InputError(input: name, reason: FileDescriptorSource.explain(errno))
        }
    }

    public mutating func waitForInput(milliseconds: Int32) -> Bool {
        guard canStall else { return true }
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&request, 1, milliseconds)
            if ready < 0, errno == EINTR, !Interruption.requested { continue }
            return ready != 0  // an error is left for read(2) to report
        }
    }

    static func explain(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file"
        case EACCES, EPERM: return "permission denied (check the file's permissions)"
        case EISDIR: return "is a directory, not a log file"
        default: return String(cString: strerror(code))
        }
    }
}

/// Bytes held in memory, handed out in chunks of at most `chunkSize` (tests use small
/// chunks to put line ends on chunk boundaries).
public struct MemorySource: ByteSource {
    private let bytes: [UInt8]
    private let chunkSize: Int
    private var offset = 0

    public init(_ bytes: [UInt8], chunkSize: Int = 1 << 16) {
        self.bytes = bytes
        self.chunkSize = max(1, chunkSize)
    }

    public init(_ text: String, chunkSize: Int = 1 << 16) {
        self.init(Array(text.utf8), chunkSize: chunkSize)
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        let count = min(buffer.count, chunkSize, bytes.count - offset)
        guard count > 0, let destination = buffer.baseAddress else { return 0 }
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { destination.copyMemory(from: base + offset, byteCount: count) }
        }
        offset += count
        return count
    }
}
