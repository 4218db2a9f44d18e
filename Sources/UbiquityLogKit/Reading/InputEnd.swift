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
    /// Bytes read at a time from the end.
    static let blockSize = 64 << 10

    /// The latest valid time among the lines of the last block that holds a record with a time,
    /// read with pread(2) (the descriptor's position, where the input is read, does not move),
    /// or nil when no line has one. `.regularFile(nil)` is a file without any time; `nil` is a
    /// descriptor that is not a regular file, whose end cannot be read first. Memory stays
    /// within two blocks and a line's first `maxLineLength` bytes (where its header is).
    static func latestTime(descriptor: Int32, format: InputFormat, parser: HeaderParser, maxLineLength: Int) -> LogTime?? {
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(info.st_size)
        let format = format == .auto ? detectedFormat(descriptor: descriptor, size: size, maxLineLength: maxLineLength) : format
        let events = NDJSONRecords(input: "", parser: parser)
        func time(of line: ArraySlice<UInt8>) -> LogTime? {
            var bytes = line
            if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
            return bytes.withUnsafeBytes { raw -> LogTime? in
                if format == .ndjson { return events.record(Line(bytes: raw, number: 0, isTruncated: false)).time }
                return parser.parse(raw)?.header.time
            }
        }
        var end = size
        // The start of the line the blocks read so far begin inside (its first bytes only).
        var carried: [UInt8] = []
        while end > 0 {
            let start = max(0, end - blockSize)
            var bytes = [UInt8](repeating: 0, count: end - start)
            let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(start)) }
            guard count == end - start else { return .some(nil) }
            bytes += carried
            // Lines that end in this block, last first; the first one may begin in an earlier block.
            let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            var latest: LogTime?
            for line in lines.dropFirst(start > 0 ? 1 : 0).reversed() {
                guard let found = time(of: line.prefix(maxLineLength)), found.isValid else { continue }
                if latest.map({ LastDuration.microseconds(from: $0, to: found) > 0 }) ?? true { latest = found }
            }
            if let latest { return .some(latest) }
            carried = start > 0 ? Array((lines.first ?? []).prefix(maxLineLength)) : []
            end = start
        }
        if !carried.isEmpty, let found = time(of: carried[...]), found.isValid { return .some(found) }
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
