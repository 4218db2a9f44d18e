// Running the library's stages on in-memory text, for unit tests.
import Foundation
import UbiquityLogKit

/// Lines as the reader hands them out, copied (the reader's slices die with the call).
public struct ReadLine: Equatable, Sendable {
    public var bytes: [UInt8]
    public var number: Int
    public var isTruncated: Bool
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}

public func readLines(_ bytes: [UInt8], chunkSize: Int = 1 << 16, limits: LineReader.Limits? = nil) throws -> [ReadLine] {
    let reader = LineReader(limits: limits ?? LineReader.Limits(chunkSize: chunkSize))
    var source = MemorySource(bytes, chunkSize: chunkSize)
    var lines: [ReadLine] = []
    try reader.readLines(from: &source) { line in
        lines.append(ReadLine(bytes: Array(line.bytes), number: line.number, isTruncated: line.isTruncated))
    }
    return lines
}

public func readLines(_ text: String, chunkSize: Int = 1 << 16) throws -> [ReadLine] {
    try readLines(Array(text.utf8), chunkSize: chunkSize)
}

/// Groups `text` into records as a run would (a run's assembler is told the app's lines by
/// a classifier: `ownLines`).
public func assemble(_ text: String, input: String = "test.log", chunkSize: Int = 1 << 16,
                     limits: RecordAssembler.Limits = RecordAssembler.Limits(),
                     ownLines: (any OwnLineRecognizer)? = nil) throws -> [Record] {
    let reader = LineReader(limits: LineReader.Limits(chunkSize: chunkSize))
    let assembler = RecordAssembler(input: input, limits: limits, ownLines: ownLines)
    var source = MemorySource(text, chunkSize: chunkSize)
    var records: [Record] = []
    try reader.readLines(from: &source) { line in
        if let record = assembler.append(line) { records.append(record) }
    }
    if let last = assembler.finish() { records.append(last) }
    return records
}

/// Classifies every record of `text` with the standard catalogue.
public func classify(_ text: String) throws -> [(record: Record, classification: Classification)] {
    let classifier = Classifier(catalog: try Catalog.standard())
    return try assemble(text, ownLines: classifier).map { ($0, classifier.classify($0)) }
}

/// Runs the whole pipeline on `text` and returns the summary and what a reporter got.
public func summarize(_ inputs: [(name: String, text: String)]) throws -> RunSummary {
    let run = LogRun(catalog: try Catalog.standard(), reporters: [])
    for input in inputs {
        var source = MemorySource(input.text)
        try run.process(&source, name: input.name)
    }
    return run.finish()
}

extension Record {
    public var textString: String { String(decoding: text, as: UTF8.self) }
    public var bodyString: String { String(decoding: body, as: UTF8.self) }
}

/// An output writer whose text can be read back: it writes to a temporary file.
public final class CapturedOutput {
    public let writer: OutputWriter
    private let path: String
    private let descriptor: Int32

    public init() {
        var template = Array("/tmp/parselogs-capture-XXXXXX".utf8CString)
        descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        writer = OutputWriter(descriptor: descriptor)
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// Everything written so far.
    public var text: String {
        writer.flush()
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }
}
