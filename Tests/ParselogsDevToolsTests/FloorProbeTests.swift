// The floor probe times the work a run cannot skip (scripts/bench-floor); these tests hold that
// it does that work: the lines, records and recognised records it counts are a full run's.
import Foundation
import Testing
import TestSupport
import ParselogsDevTools
import UbiquityLogKit

@Suite struct FloorProbeTests {
    /// What the reader, the assembler and the classifier make of `bytes`, as counts.
    static func expected(_ bytes: [UInt8], limits: LogRun.Limits = LogRun.Limits()) throws -> FloorProbe.Counts {
        let reader = LineReader(limits: limits.lines)
        let assembler = RecordAssembler(input: "test.log", limits: limits.records)
        let classifier = Classifier(catalog: try Catalog.standard())
        var counts = FloorProbe.Counts()
        func count(_ record: Record?) {
            guard let record else { return }
            counts.records += 1
            if classifier.classify(record).rule != nil { counts.recognised += 1 }
        }
        var source = MemorySource(bytes)
        try reader.readLines(from: &source) { count(assembler.append($0)) }
        count(assembler.finish())
        counts.lines = reader.linesRead
        return counts
    }

    static func probe(_ bytes: [UInt8], through stage: FloorProbe.Stage, chunkSize: Int = 1 << 16,
                      limits: LogRun.Limits = LogRun.Limits()) throws -> FloorProbe.Counts {
        var source = MemorySource(bytes, chunkSize: chunkSize)
        return try FloorProbe(catalog: try Catalog.standard(), limits: limits).run(&source, through: stage)
    }

    @Test(arguments: ["example.log", "ios6-session.log", "device-console.log", "logshow.log",
                      "scenarios/rebuild-ipad.log", "scenarios/account-logout.log"])
    func countsWhatAFullRunSees(fixture: String) throws {
        let text = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Binary.fixture(fixture))))
        let full = try Self.expected(text)
        expect(full.recognised > 0)
        try expectEqual(Self.probe(text, through: .search), full)
        // Small reads: records and messages that span reads are gathered whole.
        try expectEqual(Self.probe(text, through: .search, chunkSize: 7), full)
        try expectEqual(Self.probe(text, through: .headers), FloorProbe.Counts(lines: full.lines, records: full.records))
        try expectEqual(Self.probe(text, through: .lines), FloorProbe.Counts(lines: full.lines))
    }

    /// Every rule's samples, one record after another: the search finds a rule for each record
    /// the classifier gives a rule, continuation lines and a missing last newline included.
    @Test func everySampleIsRecognisedAsByTheClassifier() throws {
        let samples = try Catalog.standard().rules.flatMap(\.samples)
        let text = "app line before any header\n" + samples.joined(separator: "\n")
        let full = try Self.expected(Array(text.utf8))
        expect(full.recognised >= samples.count - 1)
        try expectEqual(Self.probe(Array(text.utf8), through: .search), full)
    }

    /// A record cut at the assembler's caps: the probe keeps what the assembler keeps, so a rule
    /// whose text lies past the cap recognises neither.
    @Test func keepsWithinTheAssemblersCaps() throws {
        let header = "2014-03-02 09:14:07.318 Journal[412:60b] -[PFUbiquitySetupAssistant finishSetup](95): CoreData: Ubiquity:  "
        let text = header + "\n" + String(repeating: "filler\n", count: 30) + "Using local storage: 1\n"
        var limits = LogRun.Limits()
        limits.records = RecordAssembler.Limits(maxLines: 5)
        let capped = try Self.probe(Array(text.utf8), through: .search, limits: limits)
        let whole = try Self.probe(Array(text.utf8), through: .search)
        expectEqual(capped, FloorProbe.Counts(lines: 32, records: 1, recognised: 0))
        expectEqual(capped, (try Self.expected(Array(text.utf8), limits: limits)))
        expectEqual(whole, FloorProbe.Counts(lines: 32, records: 1, recognised: 1))
        expectEqual(whole, (try Self.expected(Array(text.utf8))))
    }
}
