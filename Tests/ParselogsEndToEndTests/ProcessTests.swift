// A device console that mixes the app under test with system daemons: a verdict per process,
// the daemons not judged, --process choosing whose records are read, and every line of
// evidence naming its process.
import Foundation
import Testing
import TestSupport

@Suite struct ProcessTests {
    let console = "fixtures/device-console-daemons.log"
    let silentApp = "fixtures/device-console-app-silent.log"

    @Test func eachProcessHasAVerdictAndOnlyTheAppsDecides() throws {
        let result = try Binary.run(["--format", "json", console])
        expectEqual(result.status, 0, "the app is healthy; kbd's failed set-up and SpringBoard's unread records are theirs")
        let summary = try require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        expectEqual(summary["verdict"] as? String, "healthy")
        let processes = try require(summary["processes"] as? [[String: Any]])
        expectEqual(processes.map { $0["process"] as? String ?? "" }, ["kbd", "SpringBoard", "Journal"])
        expectEqual(processes.map { $0["verdict"] as? String ?? "" }, ["broken", "unknown", "healthy"])
        expectEqual(processes.map { $0["judged"] as? Bool ?? true }, [false, false, true])
        expectEqual(processes.map { $0["pids"] as? [Int] ?? [] }, [[87], [58], [412]])
    }

    @Test func theTimelineAndTheEvidenceNameTheirProcess() throws {
        let text = try Binary.run([console]).stdout
        expect(text.contains("ERROR kbd[87]: Error moving local log files"))
        expect(text.contains("info  Journal[412]: Loaded the cloud store"))
        expect(text.contains("  kbd[87]: broken, not judged: a system daemon (--process kbd judges it)\n    fixtures/device-console-daemons.log:9 kbd[87] setup-error:"))
        expect(text.contains("  processes        3 with sync records, 1 judged\n"))
        let github = try Binary.run(["-q", "--format", "github", console]).stdout
        expect(github.contains(",title=parselogs%3A setup-error (kbd[87])::"))
        expect(github.contains("::notice title=parselogs%3A verdict::Verdict: healthy"))
        let jsonl = try Binary.run(["--format", "jsonl", console]).stdout
        expect(jsonl.contains(#""time":"--03-02T09:14:05","process":"kbd","pid":87,"kind":"setup-error""#))
    }

    @Test func processChoosesWhoseRecordsAreReadAndJudgesADaemon() throws {
        let kbd = try Binary.run(["-q", "--process", "kbd", console])
        expectEqual(kbd.status, 1)
        expect(kbd.stdout.contains("read             21 lines, 14 records from 1 input, 11 from processes other than kbd\n"))
        expect(kbd.stdout.contains("Verdict: broken\n"))
        let both = try Binary.run(["--format", "json", "--process", "Journal", "--process", "SpringBoard", console])
        let summary = try require(JSONSerialization.jsonObject(with: Data(both.stdout.utf8)) as? [String: Any])
        expectEqual(summary["verdict"] as? String, "unknown", "SpringBoard, named, is judged: 3 of 3 records not recognised")
        expectEqual(summary["otherProcesses"] as? Int, 4, "kbd's three and the kernel's one")
        expectEqual(both.status, 1)
    }

    @Test func daemonsAloneAreNoEvidenceForTheApp() throws {
        let result = try Binary.run(["-q", silentApp])
        expectEqual(result.status, 1)
        expect(result.stdout.contains("Verdict: no evidence (no Core Data sync records from an app in 11 lines; system daemons', not judged: cloudd[301] (1), kbd[92] (2))\n"))
        try expectEqual(Binary.run(["-q", "--fail-on", "broken", "--process", "kbd", silentApp]).status, 0, "kbd's retries leave it degraded")
    }
}
