// Feeds arbitrary bytes through the whole pipeline (reader, assembler, classifier, summary,
// both reporters) with small limits so that every cutting path is reached, and traps when
// an invariant breaks: every line read belongs to exactly one record, records neither
// overlap nor skip lines, and the same input gives the same events twice.
import CFuzzerDriver
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

func run(_ bytes: [UInt8], chunkSize: Int) -> (summary: RunSummary, spans: [(first: Int, count: Int, kind: String)]) {
    var limits = LogRun.Limits()
    limits.lines = LineReader.Limits(chunkSize: chunkSize, maxLineLength: 97)
    limits.records = RecordAssembler.Limits(maxLines: 7, maxBytes: 300)
    let collector = Collector()
    let text = TextReporter(output: OutputWriter(descriptor: sink), options: TextOptions(verbosity: 3, color: true))
    let json = JSONLinesReporter(output: OutputWriter(descriptor: sink))
    let logRun = LogRun(catalog: catalog, reporters: [collector, text, json], limits: limits)
    var source = MemorySource(bytes, chunkSize: chunkSize)
    do { try logRun.process(&source, name: "fuzz") } catch { fatalError("memory input failed: \(error)") }
    return (logRun.finish(), collector.spans)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // The first byte picks the read size, so that line ends fall on every chunk boundary.
    let chunkSize = Int(bytes.first ?? 0) % 13 + 1
    let (summary, spans) = run(bytes, chunkSize: chunkSize)

    let newlines = bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    let expectedLines = newlines + (bytes.isEmpty || bytes.last == 0x0A ? 0 : 1)
    precondition(summary.lines == expectedLines, "lines \(summary.lines) != \(expectedLines)")
    precondition(summary.records == spans.count, "records \(summary.records) != \(spans.count) reported")
    var next = 1
    for span in spans {
        precondition(span.first == next, "record at line \(span.first), expected \(next)")
        precondition(span.count >= 1, "empty record at line \(span.first)")
        next += span.count
    }
    precondition(next - 1 == summary.lines, "records cover \(next - 1) of \(summary.lines) lines")

    let again = run(bytes, chunkSize: 4096)
    precondition(again.spans.map(\.kind) == spans.map(\.kind), "classification depends on the read size")
    return 0
}

@_cdecl("ParselogsFuzz_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { fuzzOne($0, $1) }
}
