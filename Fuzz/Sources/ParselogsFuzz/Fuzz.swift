// Feeds arbitrary bytes through the whole pipeline (reader, assembler, classifier, summary,
// every reporter) with small limits so that every cutting path is reached, and traps when
// an invariant breaks: every line read belongs to exactly one record, records neither
// overlap nor skip lines, the same input gives the same events twice, and every reporter's
// output is well-formed (JSON parses, JUnit is XML, GitHub output commands nothing outside its
// annotations, Markdown tables keep their shape). The last byte also picks one more path to
// fuzz: a --grep pattern taken from the input, gzip made from the input (whole, cut off,
// concatenated, damaged, followed by text), forced NDJSON, or a time window.
import CFuzzerDriver
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import UbiquityLogKit
#if canImport(Glibc)
import Glibc
#endif

/// Records what the run reported, in order.
final class Collector: Reporter {
    var spans: [(first: Int, count: Int, kind: String)] = []
    func report(_ item: ClassifiedRecord) {
        spans.append((item.record.firstLine, item.record.lineCount, item.event.kind.id))
    }
    func finish(_ summary: RunSummary) {}
}

let catalog: Catalog = {
    do { return try Catalog.standard() } catch { fatalError("catalogue: \(error)") }
}()
let sink = open("/dev/null", O_WRONLY)

/// A file a reporter writes to, read back after the run.
final class Capture {
    let descriptor: Int32
    init() {
        var template = Array("/tmp/parselogs-fuzz-XXXXXX".utf8CString)
        descriptor = template.withUnsafeMutableBufferPointer { $0.baseAddress.map { mkstemp($0) } ?? -1 }
        precondition(descriptor >= 0, "no temporary file for the reporters' output")
        template.withUnsafeBufferPointer { _ = $0.baseAddress.map { unlink($0) } }
    }
    func reset() -> OutputWriter {
        _ = ftruncate(descriptor, 0)
        _ = lseek(descriptor, 0, SEEK_SET)
        return OutputWriter(descriptor: descriptor)
    }
    var bytes: [UInt8] {
        let size = Int(lseek(descriptor, 0, SEEK_END))
        var bytes = [UInt8](repeating: 0, count: size)
        _ = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, size, 0) }
        return bytes
    }
}
// One process, one thread: libFuzzer calls the target from its own thread only.
nonisolated(unsafe) let jsonl = Capture(), json = Capture(), markdown = Capture(), github = Capture(), junit = Capture()

struct Options {
    var chunkSize = 4096
    var format: InputFormat = .auto
    var filter: DisplayFilter?
    var since: LogTime?
    var until: LogTime?
    var checkReporters = false
}

func run(_ bytes: [UInt8], _ options: Options) -> (summary: RunSummary, spans: [(first: Int, count: Int, kind: String)]) {
    var limits = LogRun.Limits()
    limits.lines = LineReader.Limits(chunkSize: options.chunkSize, maxLineLength: maxLineLength)
    limits.records = RecordAssembler.Limits(maxLines: 7, maxBytes: 300)
    let collector = Collector()
    var reporters: [Reporter] = [collector]
    if options.checkReporters {
        reporters += [
            JSONLinesReporter(output: jsonl.reset()), JSONSummaryReporter(output: json.reset()),
            MarkdownReporter(output: markdown.reset()), JUnitReporter(output: junit.reset()),
            GitHubReporter(output: github.reset(), options: TextOptions(verbosity: 3), stopToken: "f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0", stepSummaryPath: nil),
        ]
    } else {
        reporters += [
            TextReporter(output: OutputWriter(descriptor: sink), options: TextOptions(verbosity: 3, color: true)),
            JSONLinesReporter(output: OutputWriter(descriptor: sink)),
        ]
    }
    let logRun = LogRun(catalog: catalog, reporters: reporters, limits: limits)
    logRun.inputFormat = options.format
    logRun.filter = options.filter
    logRun.since = options.since
    logRun.until = options.until
    var source = MemorySource(bytes, chunkSize: options.chunkSize)
    // Memory cannot fail to be read: the one error is a UTF-16 input, said after every line was read.
    do { try logRun.process(&source, name: "fuzz|`<x>`") } catch let error as InputError where error.reason.contains("UTF-16") {
    } catch { fatalError("memory input failed: \(error)") }
    return (logRun.finish(), collector.spans)
}

/// The longest line kept whole: short, so that cutting overlong lines is fuzzed.
let maxLineLength = 97

/// The lines of `bytes`: each ends at an LF, or at a CR too in an input whose first 64 KiB
/// (or `maxLineLength` bytes, when fewer) and one byte hold no LF and a CR before another byte
/// (the classic Mac OS's line ends).
func expectedLines(_ bytes: [UInt8]) -> Int {
    let window = bytes.prefix(min(64 << 10, maxLineLength) + 1)
    let crEnds = !window.contains(0x0A) && window.firstIndex(of: 0x0D).map { $0 + 1 < window.count } == true
    let ends = bytes.reduce(0) { $0 + ($1 == 0x0A || (crEnds && $1 == 0x0D) ? 1 : 0) }
    return ends + (bytes.isEmpty || bytes.last == 0x0A || (crEnds && bytes.last == 0x0D) ? 0 : 1)
}

/// Every line read belongs to exactly one record, in order.
func checkSpans(_ summary: RunSummary, _ spans: [(first: Int, count: Int, kind: String)], lines: Int) {
    precondition(summary.lines == lines, "lines \(summary.lines) != \(lines)")
    var next = 1
    for span in spans {
        precondition(span.first >= next, "record at line \(span.first) overlaps the one before (next \(next))")
        precondition(span.count >= 1, "empty record at line \(span.first)")
        next = span.first + span.count
    }
    precondition(next - 1 <= summary.lines, "records reach line \(next - 1) of \(summary.lines)")
}

// MARK: - Well-formedness of each format

func checkReporterOutput() {
    for line in jsonl.bytes.split(separator: 0x0A) {
        precondition((try? JSONSerialization.jsonObject(with: Data(line))) != nil, "JSON Lines: not JSON: \(String(decoding: line, as: UTF8.self))")
    }
    let summary = json.bytes
    precondition((try? JSONSerialization.jsonObject(with: Data(summary))) != nil, "JSON summary does not parse")

    let xml = junit.bytes
    precondition(String(validating: xml, as: UTF8.self) != nil, "JUnit is not UTF-8")
    #if canImport(FoundationXML)
    let parser = XMLParser(data: Data(xml))
    precondition(parser.parse(), "JUnit is not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "?")")
    #endif

    // GitHub: the stop line first; nothing that looks like a command until the resume line;
    // after it, annotations only, one a line.
    let token = "f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0"
    let lines = String(decoding: github.bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    precondition(lines.first == "::stop-commands::\(token)", "GitHub output does not stop commands first")
    guard let resume = lines.firstIndex(of: "::\(token)::") else { preconditionFailure("GitHub output never resumes commands") }
    for line in lines[lines.startIndex + 1..<resume] {
        precondition(!line.hasPrefix("::") && !line.contains("##["), "GitHub: a command-like line while commands are stopped: \(line)")
    }
    for line in lines[(resume + 1)...] {
        precondition(line.hasPrefix("::error ") || line.hasPrefix("::warning ") || line.hasPrefix("::notice "), "GitHub: not an annotation: \(line)")
        precondition(line.dropFirst(2).contains("::"), "GitHub: annotation without a message: \(line)")
    }

    checkMarkdownTables(String(decoding: markdown.bytes, as: UTF8.self))
}

/// Each table's rows have as many cells as its header: a `|` from log text is escaped.
func checkMarkdownTables(_ text: String) {
    var columns: Int?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        guard line.hasPrefix("|") else { columns = nil; continue }
        var cells = 0
        var escaped = false
        for character in line.unicodeScalars {
            if escaped { escaped = false; continue }
            if character == "\\" { escaped = true } else if character == "|" { cells += 1 }
        }
        if let columns {
            precondition(cells == columns, "Markdown: a row of \(cells - 1) cells in a table of \(columns - 1): \(line)")
        } else {
            columns = cells
        }
    }
}

// MARK: - --grep

func fuzzGrep(_ bytes: [UInt8], chunkSize: Int) {
    // The pattern: the first line (at most 200 bytes); the log: the rest.
    let end = bytes.firstIndex(of: 0x0A) ?? min(bytes.count, 200)
    var pattern = String(decoding: bytes[..<min(end, 200)], as: UTF8.self)
    if (bytes.first ?? 0) & 0x10 != 0 { pattern = "(*UTF)" + pattern }
    let text = Array(bytes[min(end + 1, bytes.count)...])
    guard let filter = try? DisplayFilter(grep: pattern) else { return }
    let (summary, spans) = run(text, Options(chunkSize: chunkSize, filter: filter))
    precondition(summary.lines == expectedLines(text))
    precondition(spans.count <= summary.records, "the filter shows more records than were read")
}

// MARK: - gzip

let crcTable: [UInt32] = (0..<256).map { index in
    var value = UInt32(index)
    for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
    return value
}

func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    return crc ^ 0xFFFF_FFFF
}

func littleEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

/// A gzip member holding `data` in stored (uncompressed) deflate blocks.
func gzipMember(_ data: [UInt8]) -> [UInt8] {
    var member: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
    var rest = data[...]
    repeat {
        let block = rest.prefix(65_535)
        rest = rest.dropFirst(block.count)
        let length = UInt16(block.count)
        member += [rest.isEmpty ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
        member += block
    } while !rest.isEmpty
    return member + littleEndian(crc32(data)) + littleEndian(UInt32(truncatingIfNeeded: data.count))
}

func inflate(_ bytes: [UInt8], chunkSize: Int) -> (output: [UInt8], error: InputError?) {
    let source = GzipSource(name: "fuzz.gz", compressed: MemorySource(bytes, chunkSize: chunkSize), inputSize: max(2, chunkSize))
    var output: [UInt8] = []
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 777, alignment: 1)
    defer { buffer.deallocate() }
    while true {
        do throws(InputError) {
            let count = try source.read(into: buffer)
            if count == 0 { return (output, nil) }
            output += buffer[0..<count]
        } catch {
            return (output, error)
        }
    }
}

func fuzzGzip(_ bytes: [UInt8], chunkSize: Int) {
    let member = gzipMember(bytes)
    let whole = inflate(member, chunkSize: chunkSize)
    precondition(whole.error == nil && whole.output == bytes, "a valid member did not decompress to its data")
    let twice = inflate(member + member, chunkSize: chunkSize)
    precondition(twice.error == nil && twice.output == bytes + bytes, "two members did not decompress to both")
    let cutAt = Int(bytes.first ?? 0) % member.count
    let cut = inflate(Array(member[..<cutAt]), chunkSize: chunkSize)
    precondition(cutAt == 0 || cut.error != nil, "a cut-off member read without an error")
    precondition(cut.output == Array(bytes.prefix(cut.output.count)), "a cut-off member gave bytes that were not in it")
    let trailing = inflate(member + [0x0A] + bytes, chunkSize: chunkSize)
    precondition(trailing.output == bytes && trailing.error != nil, "data after a member was not reported")
    var damaged = member
    damaged[cutAt] ^= bytes.last ?? 1
    _ = inflate(damaged, chunkSize: chunkSize)  // anything may happen but a crash
    // The fuzzer's bytes as a member's deflate data: zlib's own parsing, fuzzed.
    _ = inflate([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF] + bytes, chunkSize: chunkSize)
}

// MARK: - the entry point

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // The first byte picks the read size, so that line ends fall on every chunk boundary.
    let chunkSize = Int(bytes.first ?? 0) % 13 + 1
    let (summary, spans) = run(bytes, Options(chunkSize: chunkSize))

    let lines = expectedLines(bytes)
    precondition(summary.records == spans.count, "records \(summary.records) != \(spans.count) reported")
    checkSpans(summary, spans, lines: lines)
    precondition(spans.reduce(0) { $0 + $1.count } == summary.lines, "records do not cover every line")

    let again = run(bytes, Options(chunkSize: 4096, checkReporters: true))
    precondition(again.spans.map(\.kind) == spans.map(\.kind), "classification depends on the read size")
    checkReporterOutput()

    switch (bytes.last ?? 0) % 4 {
    case 0:
        fuzzGrep(bytes, chunkSize: chunkSize)
    case 1:
        fuzzGzip(bytes, chunkSize: chunkSize)
    case 2:
        let ndjson = run(bytes, Options(chunkSize: chunkSize, format: .ndjson))
        precondition(ndjson.summary.lines == lines)
        checkSpans(ndjson.summary, ndjson.spans, lines: lines)
    default:
        let day = Int(bytes.first ?? 0) % 3 + 1
        let since = LogTime(parsing: "2014-03-0\(day) \(String(format: "%02d", Int(bytes.count) % 24)):14")
        let until = LogTime(parsingEndOf: "2014-03-0\(day + Int(bytes.first ?? 0) % 2)")
        let windowed = run(bytes, Options(chunkSize: chunkSize, since: since, until: until))
        precondition(windowed.summary.lines == lines)
        checkSpans(windowed.summary, windowed.spans, lines: lines)
    }
    return 0
}

@_cdecl("ParselogsFuzz_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { fuzzOne($0, $1) }
}
