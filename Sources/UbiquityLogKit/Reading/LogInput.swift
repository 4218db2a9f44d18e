// Opening an input: once, whatever it is (a file, a FIFO, a pipe, /dev/stdin, a process
// substitution). Its first bytes are read on that one descriptor to tell gzip from text, and
// handed out again before the rest: an input that cannot be read twice loses nothing.
import CZlib

/// One input as the command line names it, opened once and decompressed when it is gzip.
public struct LogInput: ByteSource {
    private enum Storage {
        case text(ReplayingSource<FileDescriptorSource>)
        case gzip(GzipSource<ReplayingSource<FileDescriptorSource>>)
    }

    /// The input's name in messages.
    public let name: String
    private var storage: Storage
    private let file: FileDescriptorSource

    /// Whether the input turned out to be gzip-compressed.
    public var isGzip: Bool {
        if case .gzip = storage { return true }
        return false
    }

    /// Opens the file at `path` (its bytes: a file name need not be UTF-8), named `name` in
    /// messages. A file that cannot be opened is an `InputError`.
    public init(path: [UInt8], name: String) throws(InputError) {
        self.init(sniffing: try FileDescriptorSource(path: path, name: name), name: name)
    }

    public init(path: String) throws(InputError) {
        try self.init(path: Array(path.utf8), name: path)
    }

    /// Standard input, named `<stdin>`; gzip there is decompressed too.
    public static func standardInput() -> LogInput {
        LogInput(sniffing: FileDescriptorSource.standardInput(), name: "<stdin>")
    }

    /// Reads the first bytes of `file` (a read error is kept, to be thrown by the first read,
    /// where the reader names the line) and decides between text and gzip.
    private init(sniffing file: FileDescriptorSource, name: String) {
        self.name = name
        self.file = file
        var head = ReplayingSource(file)
        if head.sniffGzipMagic() {
            storage = .gzip(GzipSource(name: name, compressed: head))
        } else {
            storage = .text(head)
        }
    }

    /// The descriptor read: its position is how far the input has been read.
    public var descriptor: Int32 { file.descriptor }

    /// Closes the descriptor when this input opened it (not standard input).
    public func close() { file.close() }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        switch storage {
        case .text(var source):
            defer { storage = .text(source) }
            return try source.read(into: buffer)
        case .gzip(let source):
            return try source.read(into: buffer)
        }
    }

    public mutating func waitForInput(milliseconds: Int32) -> Bool {
        switch storage {
        case .text(var source):
            defer { storage = .text(source) }
            return source.waitForInput(milliseconds: milliseconds)
        case .gzip(let source):
            return source.waitForInput(milliseconds: milliseconds)
        }
    }
}

/// A source whose first bytes were read ahead (to look at them) and are handed out again
/// before the rest. A read error met while reading ahead is thrown by the first read.
public struct ReplayingSource<Base: ByteSource>: ByteSource {
    private var base: Base
    private var head: [UInt8] = []
    private var headOffset = 0
    private var headError: InputError?

    public init(_ base: Base) { self.base = base }

    /// Bytes the first read(2) asks for: a small file's whole text comes in that one read,
    /// which its reader is then handed without another.
    static var readAhead: Int { 64 << 10 }

    /// Reads ahead until it can tell whether the input starts with gzip's magic bytes (1F 8B):
    /// one read(2) unless the first read brought the single byte 1F, so that a live input is not
    /// waited on for more than it takes to decide. The read asks for `readAhead` bytes: they
    /// are handed out again before the rest.
    public mutating func sniffGzipMagic() -> Bool {
        var failure: InputError?
        head = [UInt8](unsafeUninitializedCapacity: ReplayingSource.readAhead) { bytes, count in
            count = 0
            while count < 2 {
                let read: Int
                do throws(InputError) {
                    read = try base.read(into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: bytes[count...])))
                } catch {
                    failure = error
                    break
                }
                if read == 0 { break }
                count += read
                if bytes[0] != 0x1F { break }
            }
        }
        headError = failure
        return head.count >= 2 && head[0] == 0x1F && head[1] == 0x8B
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        if headOffset < head.count {
            let count = min(buffer.count, head.count - headOffset)
            head.withUnsafeBytes { head in
                buffer.baseAddress?.copyMemory(from: head.baseAddress! + headOffset, byteCount: count)
            }
            headOffset += count
            if headOffset == head.count { head = [] }  // not held to the input's end
            return count
        }
        if let error = headError {
            headError = nil
            throw error
        }
        return try base.read(into: buffer)
    }

    public mutating func waitForInput(milliseconds: Int32) -> Bool {
        if headOffset < head.count || headError != nil { return true }
        return base.waitForInput(milliseconds: milliseconds)
    }
}
