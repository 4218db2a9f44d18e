import Testing
import TestSupport
@testable import UbiquityLogKit

/// Problems grouped into incidents with outcomes, and the verdicts they give.
@Suite struct IncidentTests {
    private func usm(_ time: String, _ message: String) -> String { "2014-03-02 09:\(time) Journal[412:60b] UbiquityStoreManager: \(message)" }
    private let importFailure = #"2014-03-02 09:15:44.807 Journal[412:4e13] -[_PFUbiquityRecordsImporter operation:failedWithError:](1489): CoreData: Ubiquity:  Import operation encountered had trouble importing log file, Error Domain=NSCocoaErrorDomain Code=134302 "x" UserInfo=0x1 {reason=Could not read the transaction log}"#

    private func run(_ inputs: [(String, [String])]) throws -> RunSummary {
        try summarize(inputs.map { ($0.0, $0.1.joined(separator: "\n")) })
    }

    @Test func aCleanCloudLoadIsHealthy() throws {
        let summary = try run([("a.log", [usm("14:07.000", "Will load cloud store."), usm("14:08.000", "Successfully loaded cloud store.")])])
        expect(summary.ubiquity.incidents.isEmpty)
        expectEqual(summary.verdict, .healthy)
        expectEqual(summary.verdicts, [InputVerdict(input: "a.log", verdict: .healthy, evidence: [])])
    }

    @Test func aFailedLoadThatARetryRecoversIsDegraded() throws {
        let summary = try run([("b.log", [
            usm("14:07.000", "Will load cloud store."),
            usm("14:07.500", "Failed to load cloud store."),
            usm("14:07.600", "Attempting recovery by rebuilding from cloud content."),
            usm("14:08.000", "Will load cloud store."),
            usm("14:09.000", "Successfully loaded cloud store."),
        ])])
        try require(summary.ubiquity.incidents.count == 1)
        let incident = summary.ubiquity.incidents[0]
        expectEqual(incident.outcome, .recovered)
        expectEqual(incident.problems.map(\.line), [2, 3])
        expectEqual(incident.recovery?.line, 5)
        expectEqual(summary.verdict, .degraded)
        expectEqual(summary.verdicts[0].evidence.count, 2)
        expect(summary.verdicts[0].evidence[1].hasPrefix("recovered: b.log:5 store-load-succeeded"))
    }

    @Test func corruptionLeftToAnotherDeviceIsBroken() throws {
        let summary = try run([("c.log", [
            usm("14:07.000", "Will load cloud store."), usm("14:08.000", "Successfully loaded cloud store."),
            importFailure,
            usm("15:44.811", "Detected iCloud transaction log import failure."),
            usm("15:44.812", "Cloud content corruption detected (device store is healthy)."),
            usm("15:44.813", "Handling cloud corruption with default strategy: Wait for a remote rebuild."),
        ])])
        expectEqual(summary.ubiquity.incidents.map(\.outcome), [.waiting])
        expectEqual(summary.ubiquity.incidents.first?.opening.kind, .importFailed)
        expectEqual(summary.verdict, .broken)
        expectEqual(summary.verdicts[0].evidence, ["c.log:3 import-failed: Import failed for log ?: NSCocoaErrorDomain 134302: Could not read the transaction log, waiting for another device to rebuild the cloud content"])
        expectEqual(SummaryText.verdictLines(summary), ["Verdict: broken", "  " + summary.verdicts[0].evidence[0]])
    }

    @Test func corruptionRebuiltHereRecovers() throws {
        let summary = try run([("d.log", [
            importFailure,
            usm("15:44.812", "Cloud content corruption detected (device store is healthy)."),
            usm("15:44.813", "Handling cloud corruption with default strategy: Rebuilding cloud content."),
            usm("15:45.000", "Will rebuild cloud content from the cloud store (ignoring cloud logs)."),
            usm("15:46.000", "StoreUUID changed 6F0D0A1E-8C55-4F4C-9C3A-1D2E3F4A5B6C -> 0B1C2D3E-4F50-6172-8394-A5B6C7D8E9F0"),
            usm("15:47.000", "Will load cloud store."),
            usm("15:48.000", "Successfully loaded cloud store."),
        ])])
        expectEqual(summary.ubiquity.incidents.map(\.outcome), [.recovered])
        expectEqual(summary.ubiquity.incidents.first?.recovery?.kind, .storeUUIDChanged)
        expectEqual(summary.verdict, .degraded)
    }

    @Test func anAccountLogoutFallbackIsAWarning() throws {
        let summary = try run([("e.log", [
            usm("14:07.000", "Will load cloud store."),
            usm("14:07.100", "Cannot load cloud store: User is not logged into iCloud.  Falling back to local store."),
            usm("14:07.200", "Will load local store."),
            usm("14:07.900", "Successfully loaded local store."),
        ])])
        expect(summary.ubiquity.incidents.isEmpty, "a warning alone is no incident")
        expectEqual(summary.verdict, .degraded)
        expectEqual(summary.verdicts[0].evidence.first?.hasPrefix("e.log:2 cloud-store-unavailable"), true)
    }

    @Test func devicesHaveTheirOwnVerdictsAndTheRunTheWorst() throws {
        let summary = try run([
            ("iphone.log", [importFailure, usm("15:44.812", "Cloud content corruption detected (device store is healthy).")]),
            ("ipad.log", [usm("14:07.000", "Will load cloud store."), usm("14:08.000", "Successfully loaded cloud store.")]),
        ])
        expectEqual(summary.verdicts.map(\.verdict), [.broken, .healthy])
        expectEqual(summary.verdict, .broken)
        expectEqual(summary.ubiquity.incidents.map(\.input), ["iphone.log"], "an incident does not run on into the next input")
        let lines = SummaryText.lines(summary)
        expect(lines.contains("    iphone.log: 1 import failure; 1 corruption report; 1 incident (unresolved); broken"))
        expect(lines.contains("    ipad.log: 1 load (1 succeeded); healthy"))
        expect(lines.contains("  iphone.log: broken"))
        expect(lines.contains("  ipad.log: healthy"))
    }

    @Test func failOnTakesVerdicts() throws {
        let catalog = try Catalog.standard()
        let broken = try FailOn(parsing: "broken", catalog: catalog)
        let degraded = try FailOn(parsing: "degraded", catalog: catalog)
        var summary = RunSummary()
        summary.verdict = .degraded
        expect(!broken.outcome(of: summary, catalog: catalog).fails)
        expect(degraded.outcome(of: summary, catalog: catalog).verdictFails)
        summary.verdict = .broken
        expectEqual(broken.outcome(of: summary, catalog: catalog).reasons, ["the verdict is broken (--fail-on broken)"])
        #expect(throws: FailOnError.self) { try FailOn(parsing: "healthy", catalog: catalog) }
    }
}

extension IncidentTests {
    @Test func theVerdictHoldsPastTheKeptIncidents() throws {
        let recovered = [usm("14:07.000", "Will load cloud store."), usm("14:07.500", "Failed to load cloud store."), usm("14:08.000", "Successfully loaded cloud store.")]
        var lines = Array(repeating: recovered, count: RunSummary.maxKeptFindings).flatMap { $0 }
        lines.append(importFailure)
        let summary = try run([("g.log", lines)])
        expectEqual(summary.ubiquity.incidents.count, RunSummary.maxKeptFindings)
        expectEqual(summary.verdict, .broken, "the unrecovered incident after the kept ones still decides")
    }
}

@Suite struct KindSetTests {
    /// Every other kind of the catalogue in, the rest out (past 64 kinds: more than one word).
    @Test func holdsExactlyItsKinds() throws {
        let kinds = try Catalog.standard().kinds
        expect(kinds.map(\.ordinal).max() ?? 0 >= 64)
        for parity in 0...1 {
            let members = kinds.filter { $0.ordinal % 2 == parity }
            let set = KindSet(members)
            for kind in kinds { expectEqual(set.contains(kind), (kind.ordinal % 2 == parity), "\(kind.id)") }
        }
        expect(!KindSet([]).contains(kinds[0]))
    }
}
