// The end of a regular file, read backwards (`--last`): the latest time of its last records,
// found without reading the file from its start.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum InputEnd {
    /// The size of the file `descriptor` reads, when it is a regular file (nil for a pipe, a
    /// terminal, a device, or when fstat fails).
    static func regularFileSize(_ descriptor: Int32) -> Int? {
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Bytes read at a time from the end.
    static let blockSize = 64 << 10

    /// The latest valid time among the lines of the last block that holds a record with a
    /// time, read with pread(2) (the descriptor's position, where the input is read, does not
    /// move). `.some(nil)`: a file without any time. `nil`: a descriptor that is not a regular
    /// file, or whose end could not be read, which is then read once (see `LastWindow`). A line
    /// longer than the reader keeps is read as the reader reads it: its start and its tail
    /// (where an NDJSON event's timestamp is). Memory stays within a block and a line's kept parts.
    static func latestTime(descriptor: Int32, format: InputFormat, parser: HeaderParser, limits: LineReader.Limits,
                           blockSize: Int = InputEnd.blockSize) -> LogTime?? {
        guard let size = regularFileSize(descriptor) else { return nil }
        let format = format == .auto ? detectedFormat(descriptor: descriptor, size: size, maxLineLength: limits.maxLineLength) : format
        let events = NDJSONRecords(input: "", parser: parser)
        /// A line as the reader keeps it: its first bytes, and its last when it is longer.
        struct Kept {
            var head: [UInt8] = []
            var tail: [UInt8] = []
            var length = 0

            /// `bytes` before this line's kept parts.
            func after(_ bytes: ArraySlice<UInt8>, limits: LineReader.Limits) -> Kept {
                let joined = Array(bytes) + head
                return Kept(head: Array(joined.prefix(limits.maxLineLength)),
                            tail: length >= limits.tailLength ? tail : Array((Array(bytes) + tail).suffix(limits.tailLength)),
                            length: bytes.count + length)
            }
        }
        func time(of line: Kept) -> LogTime? {
            let truncated = line.length > limits.maxLineLength
            var head = line.head[...]
            if !truncated, head.last == UInt8(ascii: "\r") { head = head.dropLast() }
            let found = head.withUnsafeBytes { raw -> LogTime? in
                if format == .ndjson {
                    // As the reader gives it: the end of the part not kept.
                    return line.tail.suffix(max(0, line.length - limits.maxLineLength)).withUnsafeBytes { tail in
                        events.record(Line(bytes: raw, number: 0, isTruncated: truncated, tail: truncated ? tail : nil)).time
                    }
                }
                return parser.parse(raw)?.header.time
            }
            return found.flatMap { $0.isValid ? $0 : nil }
        }
        var end = size
        // The line the blocks read so far begin inside.
        var carried = Kept()
        while end > 0 {
            let start = max(0, end - max(1, blockSize))
            var bytes = [UInt8](repeating: 0, count: end - start)
            let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(start)) }
            guard count == end - start else { return nil }
            let segments = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            // The last segment ends the carried line; the first may begin in an earlier block.
            let whole = segments.indices.dropFirst(start > 0 ? 1 : 0)
            var latest: LogTime?
            for index in whole.reversed() {
                let line = index == segments.count - 1 ? carried.after(segments[index], limits: limits)
                    : Kept().after(segments[index], limits: limits)
                guard let found = time(of: line) else { continue }
                if latest.map({ LastDuration.microseconds(from: $0, to: found) > 0 }) ?? true { latest = found }
            }
            if let latest { return .some(latest) }
            if start > 0 {
                carried = segments.count == 1 ? carried.after(segments[0], limits: limits) : Kept().after(segments[0], limits: limits)
            }
            end = start
        }
        return .some(nil)
    }

    /// `auto`'s choice from the file's first line (after a UTF-8 byte order mark).
    private static func detectedFormat(descriptor: Int32, size: Int, maxLineLength: Int) -> InputFormat {
        var head = [UInt8](repeating: 0, count: min(size, maxLineLength))
        let count = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return .auto }
        var line = head[..<count]
        if line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
        if let newline = line.firstIndex(of: UInt8(ascii: "\n")) { line = line[..<newline] }
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        return line.withUnsafeBytes { InputFormat.detect(firstLine: $0) }
    }
}
