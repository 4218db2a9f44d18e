// The verdicts that say a run cannot vouch for the store (no evidence, unknown), and verdicts
// per process: a system daemon's records never decide the app's verdict.
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct VerdictTests {
    private func usm(_ process: String, _ time: String, _ message: String) -> String {
        "Mar  2 09:\(time) iPad \(process) <Notice>: UbiquityStoreManager: \(message)"
    }
    private func ubiquity(_ process: String, _ time: String, _ message: String) -> String {
        "Mar  2 09:\(time) iPad \(process) <Notice>: -[PFUbiquityThing doSomething:](12): CoreData: Ubiquity:  \(message)"
    }

    private func run(_ lines: [String], processes: Set<String> = []) throws -> RunSummary {
        let run = LogRun(catalog: try Catalog.standard(), reporters: [])
        run.processes = processes
        var source = MemorySource(lines.joined(separator: "\n"))
        try run.process(&source, name: "console.log")
        return run.finish()
    }

    @Test func anEmptyInputOrAnotherFrameworksLogHasNoEvidence() throws {
        let empty = try run([])
        expectEqual(empty.verdict, .noEvidence)
        expectEqual(empty.verdictSentence, "no evidence (no Core Data sync records in 0 lines)")
        let other = try run(["Mar  2 09:14:05 iPad Journal[412] <Notice>: Saved entry", "Mar  2 09:14:06 iPad Journal[412] <Notice>: Synced with server"])
        expectEqual(other.verdict, .noEvidence)
        expectEqual(other.verdictSentence, "no evidence (no Core Data sync records in 2 lines)")
        expectEqual(other.outcome?.fails, true, "the default fails it")
    }

    @Test func mostlyUnrecognisedRecordsAreUnknownButABrokenStoreStaysBroken() throws {
        let unread = try run([
            ubiquity("Journal[412]", "14:05", "Something no rule knows"),
            ubiquity("Journal[412]", "14:06", "Something else no rule knows"),
            usm("Journal[412]", "14:07", "Will load cloud store."),
            usm("Journal[412]", "14:08", "Successfully loaded cloud store."),
        ])
        expectEqual(unread.verdict, .unknown, "half of the records were not recognised")
        expectEqual(unread.verdictReason, "2 of 4 ubiquity records not recognised")

        let understood = try run([
            ubiquity("Journal[412]", "14:05", "Something no rule knows"),
            usm("Journal[412]", "14:07", "Will load cloud store."),
            usm("Journal[412]", "14:08", "Successfully loaded cloud store."),
        ])
        expectEqual(understood.verdict, .healthy, "1 of 3 is not most")

        let broken = try run([
            ubiquity("Journal[412]", "14:05", "Something no rule knows"),
            ubiquity("Journal[412]", "14:06", "Something else no rule knows"),
            usm("Journal[412]", "14:07", "Will load cloud store."),
            usm("Journal[412]", "14:08", "Failed to load cloud store."),
        ])
        expectEqual(broken.verdict, .broken, "what was understood already says broken")
    }

    @Test func aDaemonsProblemsDoNotDecideTheAppsVerdict() throws {
        let summary = try run([
            usm("kbd[87]", "14:05", "Will load cloud store."),
            usm("Journal[412]", "14:05", "Will load cloud store."),
            usm("kbd[87]", "14:06", "Failed to load cloud store."),
            usm("Journal[412]", "14:07", "Successfully loaded cloud store."),
        ])
        expectEqual(summary.verdict, .healthy)
        let kbd = try require(summary.processes.first { $0.process == "kbd" })
        expectEqual(kbd.verdict, .broken, "the app's load success does not recover the daemon's failure")
        expect(!kbd.isJudged)
        expectEqual(kbd.evidence.first?.hasPrefix("console.log:3 kbd[87] store-load-failed"), true, "evidence names its process")
        expectEqual(summary.ubiquity.storeLoadAttempts.map { "\($0.process ?? "") \($0.outcome)" }, ["kbd failed", "Journal succeeded"])
        let journal = try require(summary.processes.first { $0.process == "Journal" })
        expect(journal.verdict == .healthy && journal.isJudged && journal.pids == [412])
        expect(SummaryText.verdictLines(summary).contains("  kbd[87]: broken, not judged: a system daemon (--process kbd judges it)"))
    }

    @Test func onlyDaemonsSyncRecordsAreNoEvidenceUntilProcessNamesOne() throws {
        let lines = [
            "Mar  2 09:14:04 iPad Journal[412] <Notice>: Saved entry",
            usm("kbd[87]", "14:05", "Will load cloud store."),
            usm("kbd[87]", "14:06", "Failed to load cloud store."),
        ]
        let all = try run(lines)
        expectEqual(all.verdict, .noEvidence)
        expectEqual(all.verdictReason, "no Core Data sync records from an app in 3 lines; system daemons', not judged: kbd[87] (2)")
        let kbd = try run(lines, processes: ["kbd"])
        expectEqual(kbd.verdict, .broken, "a daemon --process names is judged")
        expectEqual(kbd.otherProcesses, 1)
        let journal = try run(lines, processes: ["Journal"])
        expectEqual(journal.verdict, .noEvidence)
        expectEqual(journal.verdictReason, "no Core Data sync records from Journal in 3 lines")
    }

    @Test func aHeaderlessRecordBelongsToTheLastProcessWithSyncRecords() throws {
        let summary = try run([
            usm("Journal[412]", "14:05", "Will load cloud store."),
            "Mar  2 09:14:05 iPad SpringBoard[58] <Notice>: Application 'Journal' launched",
            "UbiquityStoreManager: Failed to load cloud store.",
        ])
        expectEqual(summary.processes.map(\.name), ["Journal[412]"])
        expectEqual(summary.verdict, .broken)
    }

    @Test func failOnVerdictsAreThresholdsInVerdictOrder() throws {
        let catalog = try Catalog.standard()
        expectEqual(Verdict.allCases, [.healthy, .degraded, .noEvidence, .unknown, .broken])
        let noEvidence = try FailOn(parsing: "no-evidence", catalog: catalog)
        expect(!noEvidence.fails(verdict: .degraded))
        expect(noEvidence.fails(verdict: .noEvidence) && noEvidence.fails(verdict: .unknown) && noEvidence.fails(verdict: .broken))
        expect(FailOn.standard.fails(verdict: .degraded) && !FailOn.standard.fails(verdict: .healthy))
        #expect(throws: FailOnError.self) { try FailOn(parsing: "healthy", catalog: catalog) }
    }
}
