import Testing
import TestSupport
@testable import UbiquityLogKit

// A family of logs declared here alone: its id, marker, channel, two rules, two kinds, a
// tracker and a story row. Nothing of the engine names it: the run is given a catalogue with
// it, and the reader, the classifier, the summary and the reporters take it from there.

extension FamilyID {
    static let sampleSync = FamilyID("sample-sync")
}

extension Marker {
    /// Not one of the C reader's markers: found by the loose reading. Its first word ends like
    /// `CoreData:` (`C`…`a`), as the quick colon test requires of every marker.
    static let sampleSync = Marker(name: "sample-sync")
}

extension Channel {
    static let sampleSync = Channel("sampleSync", family: .sampleSync, shape: .lines, marker: .sampleSync)
}

extension EventKind {
    static let sampleBatchSaved = EventKind("sample-batch-saved", .export, .info, .notable,
                                            "The sample sync saved a batch of objects.", family: .sampleSync)
    static let sampleBatchFailed = EventKind("sample-batch-failed", .export, .error, .notable,
                                             "The sample sync could not save a batch.", family: .sampleSync)
}

/// Counts saved objects; a failed batch breaks the process's verdict.
final class SampleSyncTracker: FamilyTracker {
    private var saved = 0
    private var failedGroups: [Int: String] = [:]
    private var group = 0

    func interest(in kind: EventKind) -> TrackerInterest { .every }
    func wants(_ record: borrowing Record, _ event: borrowing Event, ordinal: Int) -> Bool { true }
    func beginInput(_ name: String) {}
    func switchGroup(to group: Int, input: String, process: () -> String?) { self.group = group }

    func add(_ record: Record, _ event: Event, finding: () -> Finding) {
        guard case .message(let kind, let fields) = event else { return }
        if kind == .sampleBatchSaved, let count = fields.first(where: { $0.name == "count" }), case .int(let objects) = count.value {
            saved += objects
        } else if kind == .sampleBatchFailed, failedGroups[group] == nil {
            failedGroups[group] = "\(record.input):\(record.firstLine) a batch failed"
        }
    }

    func ending(inputs: [String]) -> FamilyEnding {
        let failed = failedGroups
        return FamilyEnding(story: SampleSyncStory(saved: saved)) { group, _ in
            failed[group].map { (.broken, [$0]) } ?? (.healthy, [])
        }
    }
}

struct SampleSyncStory: FamilyStory {
    var saved: Int
    func rows(in summary: RunSummary) -> [SummaryText.Row] { [SummaryText.Row(label: "sample sync", value: "\(saved) objects saved")] }
    var fields: [Field] { [Field("saved", .int(saved))] }
}

extension Family {
    static let sampleSync = Family(
        id: .sampleSync, recordNoun: "sample sync",
        markers: [MarkerSpelling(.sampleSync, "MyCoreData: Sync:")],
        channels: [.sampleSync],
        rules: [
            Rule.message("sample-batch-saved", .sampleSync, .sampleBatchSaved, #"Saved (?<count>\d+) objects"#, numeric: ["count"],
                         samples: ["MyCoreData: Sync: Saved 3 objects"]),
            Rule.message("sample-batch-failed", .sampleSync, .sampleBatchFailed, #"Batch failed: (?<reason>[^\n]*)"#,
                         samples: ["MyCoreData: Sync: Batch failed: disk full"]),
        ],
        factKinds: [.sampleBatchSaved],
        makeTracker: { SampleSyncTracker() })
}

@Suite struct TestFamilyTests {
    static let log = """
    2014-03-02 09:14:05.001 Journal[412:60b] App started
    2014-03-02 09:14:05.121 Journal[412:60b] MyCoreData: Sync: Saved 3 objects
    2014-03-02 09:14:05.300 Journal[412:60b] [Sync] MyCoreData: Sync: Saved 4 objects
    2014-03-02 09:14:06.000 Journal[412:60b] MyCoreData: Sync: Something new
    2014-03-02 09:14:05.400 Journal[412:60b] UbiquityStoreManager: Successfully loaded cloud store.
    """

    func run(_ text: String, reporters: (CapturedOutput) -> [Reporter] = { _ in [] }) throws -> (RunSummary, String) {
        let catalog = try Catalog(families: Catalog.families + [.sampleSync])
        let output = CapturedOutput()
        let run = LogRun(catalog: catalog, reporters: reporters(output))
        var source = MemorySource(text)
        try run.process(&source, name: "sample.log")
        let summary = run.finish()
        return (summary, output.text)
    }

    @Test func itsRecordsAreReadClassifiedAndCountedAsItsOwn() throws {
        let (summary, _) = try run(Self.log)
        expectEqual(summary.countsByKind["sample-batch-saved"], 2, "\(summary.countsByKind)")
        expectEqual(summary.families.map(\.id), [.ubiquity, .sampleSync])
        let family = try require(summary.families.first { $0.id == .sampleSync })
        expectEqual(family.records, 3)
        expectEqual(family.unhandled, 1, "a record with its marker that no rule recognises is its own unhandled record")
        expectEqual(summary.story(SampleSyncStory.self)?.saved, 7)
        expectEqual(summary.verdict, .healthy, "1 of 3 unrecognised is less than half: \(summary.verdictSentence)")
    }

    @Test func itsVerdictCountsForItsProcess() throws {
        let (summary, _) = try run(Self.log + "\n2014-03-02 09:14:07.000 Journal[412:60b] MyCoreData: Sync: Batch failed: disk full")
        expectEqual(summary.verdict, .broken)
        expectEqual(summary.verdicts.first?.evidence, ["sample.log:6 a batch failed"])
        expectEqual(summary.errors, 1)
        let (unread, _) = try run("2014-03-02 09:14:06.000 Journal[412:60b] MyCoreData: Sync: Something new")
        expectEqual(unread.verdictSentence, "unknown (1 of 1 sample sync records not recognised)")
    }

    @Test func reportersPrintItsStoryAndItsKinds() throws {
        let (_, text) = try run(Self.log) { [TextReporter(output: $0.writer, options: TextOptions())] }
        expect(text.contains("sample sync      7 objects saved"), "\(text)")
        expect(text.contains("sample-batch-saved") || text.contains("Saved 3 objects"), "\(text)")
        let (_, json) = try run(Self.log) { [JSONSummaryReporter(output: $0.writer)] }
        expect(json.contains(#""sample-sync":{"records":3,"unhandled":1,"saved":7}"#), "\(json)")
    }
}
