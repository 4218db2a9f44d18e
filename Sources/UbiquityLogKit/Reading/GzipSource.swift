import CZlib

/// Gzip-compressed bytes, decompressed as they are read, as `gzip -dc` does: every member of a
/// multi-member file (`cat a.gz b.gz`) in turn. What is decompressed before damage is handed
/// out before the error is thrown; bytes after the last member that are not another member are
/// an error (not silently dropped); a stream cut off inside a member is an error.
public final class GzipSource<Compressed: ByteSource>: ByteSource {
    public let name: String
    private var compressed: Compressed
    /// Heap-allocated: zlib checks that the stream it initialised has not moved.
    private let stream: UnsafeMutablePointer<z_stream>
    private let input: UnsafeMutableRawBufferPointer
    /// Between members: the next bytes must be gzip's magic or the input's end.
    private var atMemberStart = true
    private var compressedEnded = false
    private var finished = false
    /// An error met after some output was produced: thrown by the next read.
    private var pendingError: InputError?
    /// Gzip members begun so far.
    public private(set) var members = 0

    public init(name: String, compressed: Compressed, inputSize: Int = 1 << 17) {
        self.name = name
        self.compressed = compressed
        self.input = .allocate(byteCount: max(2, inputSize), alignment: 16)
        self.stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        if czlib_inflate_init_gzip(stream) != Z_OK {
            pendingError = InputError(input: name, reason: "gzip: out of memory")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        input.deallocate()
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        if let error = pendingError {
            pendingError = nil
            finished = true
            throw error
        }
        guard !finished, let output = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let room = UInt32(min(buffer.count, Int(UInt32.max)))
        stream.pointee.next_out = output.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = room
        var produced: Int { Int(room - stream.pointee.avail_out) }
        do throws(InputError) {
            while produced == 0 {
                if stream.pointee.avail_in == 0 {
                    if compressedEnded {
                        finished = true
                        if atMemberStart { return 0 }
                        throw failure("unexpected end of file")
                    }
                    try refill(keeping: 0)
                    continue
                }
                if atMemberStart {
                    if stream.pointee.avail_in < 2, !compressedEnded {
                        try refill(keeping: Int(stream.pointee.avail_in))
                        continue
                    }
                    let next = stream.pointee.next_in
                    guard stream.pointee.avail_in >= 2, let next, next[0] == 0x1F, next[1] == 0x8B else {
                        finished = true
                        throw failure("data after the compressed data is not gzip; it was not read")
                    }
                    atMemberStart = false
                    members += 1
                }
                switch inflate(stream, Z_NO_FLUSH) {
                case Z_OK, Z_BUF_ERROR:
                    continue  // more input or more room needed: the loop provides it
                case Z_STREAM_END:
                    // The member's trailer (CRC and length) has been checked; another may follow.
                    inflateReset(stream)
                    atMemberStart = true
                default:
                    // zlib's own words ("incorrect data check" for a bad CRC, which is met at the
                    // member's end, after its data was handed out).
                    let message = stream.pointee.msg.map { String(cString: $0) } ?? "unreadable compressed data"
                    throw failure("\(message): the compressed data is damaged; the lines before this point were read")
                }
            }
        } catch {
            if produced > 0 {
                pendingError = error
                return produced
            }
            finished = true
            throw error
        }
        return produced
    }

    public func waitForInput(milliseconds: Int32) -> Bool {
        if stream.pointee.avail_in > 0 || pendingError != nil || finished { return true }
        return compressed.waitForInput(milliseconds: milliseconds)
    }

    /// Reads more compressed bytes after the `keeping` unread ones, which move to the front.
    private func refill(keeping: Int) throws(InputError) {
        guard let base = input.baseAddress else { return }
        if keeping > 0, let next = stream.pointee.next_in { base.copyMemory(from: next, byteCount: keeping) }
        let count = try compressed.read(into: UnsafeMutableRawBufferPointer(rebasing: input[keeping...]))
        if count == 0 { compressedEnded = true }
        stream.pointee.next_in = base.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_in = UInt32(keeping + count)
    }

    private func failure(_ reason: String) -> InputError {
        InputError(input: name, reason: "gzip: \(reason)")
    }
}
