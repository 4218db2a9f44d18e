// --fail-on, the CI formats, the display filters, Ctrl-C and a reader that goes away.
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

@Suite struct CIFormatTests {
    let example = "fixtures/example.log"
    let ios6 = "fixtures/ios6-session.log"

    @Test func failOnDecidesTheExitStatus() throws {
        try expectEqual(Binary.run(["-q", "--fail-on", "none", example]).status, 0)
        try expectEqual(Binary.run(["-q", "--fail-on", "error", example]).status, 1)
        try expectEqual(Binary.run(["-q", ios6]).status, 1, "the default is degraded: anything but healthy fails")
        try expectEqual(Binary.run(["-q", "--fail-on", "broken", ios6]).status, 0, "degraded is not broken")
        try expectEqual(Binary.run(["-q", "--fail-on", "no-evidence", ios6]).status, 0, "degraded comes before no-evidence")
        try expectEqual(Binary.run(["-q", "--fail-on", "warning", ios6]).status, 1, "a severity includes those above it")
        try expectEqual(Binary.run(["-q", "--fail-on", "corruption,import-failed", example]).status, 1)
        try expectEqual(Binary.run(["-q", "--fail-on", "corruption", ios6]).status, 0)
        try expectEqual(Binary.run(["-q", "--fail-on", "baseline-roll-response-failed", ios6]).status, 1, "a kind id")
        try expectEqual(Binary.run(["-q", "--fail-on", "store-load-started", ios6]).status, 0)
        for bad in ["bogus", "none,error", "", "healthy"] {
            let result = try Binary.run(["-q", "--fail-on", bad, example])
            expectEqual(result.status, 2, "\(bad)")
            expect(result.stderr.contains("--fail-on"), "\(bad)")
        }
    }

    @Test func noSyncRecordsIsNoEvidenceAndFailsByDefault() throws {
        let other = Data("2014-03-02 09:14:05.001 Journal[412:60b] Journal 2.1 did finish launching\nSaved entry\n".utf8)
        for (name, input) in [("empty", Data()), ("another framework's log", other)] {
            let result = try Binary.run(["-q"], stdin: input)
            expectEqual(result.status, 1, "\(name)")
            expect(result.stdout.contains("Verdict: no evidence (no Core Data sync records in"), "\(name)")
            // Every gate carries the no-evidence gate: a capture that forgot its launch argument
            // must not pass `--fail-on broken`.
            let broken = try Binary.run(["-q", "--fail-on", "broken"], stdin: input)
            expectEqual(broken.status, 1, "\(name)")
            expect(broken.stdout.hasSuffix("Outcome: fail: no evidence in <stdin> (every --fail-on but none fails on it; --allow-no-evidence passes it)\n"), "\(name)")
            try expectEqual(Binary.run(["-q", "--fail-on", "no-evidence"], stdin: input).status, 1, "\(name)")
            try expectEqual(Binary.run(["-q", "--fail-on", "unknown"], stdin: input).status, 1, "\(name)")
            try expectEqual(Binary.run(["-q", "--fail-on", "corruption,import-failed"], stdin: input).status, 1, "\(name)")
            try expectEqual(Binary.run(["-q", "--fail-on", "none"], stdin: input).status, 0, "\(name)")
            let allowed = try Binary.run(["-q", "--fail-on", "broken", "--allow-no-evidence"], stdin: input)
            expectEqual(allowed.status, 0, "\(name)")
            expect(allowed.stdout.hasSuffix("Outcome: pass (--fail-on broken --allow-no-evidence)\n"), "\(name)")
            try expectEqual(Binary.run(["-q", "--allow-no-evidence"], stdin: input).status, 0, "\(name): the default gate too")
        }
        let unread = Data("2014-03-02 09:14:05.001 Journal[412:60b] -[PFUbiquityFoo bar](12): CoreData: Ubiquity:  Nothing any rule knows\n".utf8)
        let unknown = try Binary.run(["-q", "--fail-on", "unknown"], stdin: unread)
        expectEqual(unknown.status, 1)
        expect(unknown.stdout.contains("Result: 0 errors, 0 warnings, 1 unhandled\n"))
        expect(unknown.stdout.contains("Verdict: unknown (1 of 1 ubiquity records not recognised)\n"))
    }

    @Test func quietIsRefusedWithJSONLinesAndWorksWithTheOtherFormats() throws {
        let refused = try Binary.run(["-q", "--format", "jsonl", example])
        expectEqual(refused.status, 2)
        expect(refused.stderr.contains("--format json"))
        for format in ["text", "json", "markdown", "github", "junit"] {
            let quiet = try Binary.run(["-q", "--format", format, example])
            expectEqual(quiet.status, 1, "\(format)")
            expect(quiet.stderr.isEmpty, "\(format)")
            expect(!quiet.stdout.contains("hint:"), "\(format): no timeline")
        }
    }

    @Test func jsonIsTheSummaryObjectAlone() throws {
        let result = try Binary.run(["--format", "json", example])
        expectEqual(result.status, 1)
        let lines = result.stdout.split(separator: "\n")
        expectEqual(lines.count, 1)
        let object = try require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        expectEqual(object["type"] as? String, "summary")
        let ubiquity = (object["families"] as? [String: Any])?["ubiquity"] as? [String: Any]
        expectEqual(ubiquity?["importFailures"] as? Int, 1)
        expectEqual(ubiquity?["corruptionReports"] as? Int, 1)
    }

    @Test func markdownSummaryLeadsWithTheVerdictAndListsIncidentsWithHints() throws {
        let result = try Binary.run(["--format", "markdown", example])
        expectEqual(result.status, 1)
        expect(result.stdout.hasPrefix("## parselogs: broken\n\n**Fails** the run: the verdict is broken (--fail-on degraded)\n"))
        expect(result.stdout.contains("| `fixtures/example.log:85` | `import-failed` | waiting | Read the error"))
        expect(result.stdout.contains("| import failures | 1 |"))
        expect(result.stdout.contains("| result | 3 errors, 1 warning, 1 unhandled |"))
        expect(result.stdout.contains("| `fixtures/example.log:85` | `import-failed` | Import failed for log 0C9B8A7F-6E5D-4C3B-2A19-F8E7D6C5B4A3.1.cdt: NSCocoaErrorDomain 134302: Could not read the transaction log |"))
        let empty = try Binary.run(["--format", "markdown"], stdin: Data())
        expect(empty.stdout.hasPrefix("## parselogs: no evidence (no Core Data sync records in 0 lines)\n"))
    }

    @Test func githubAnnotationsWithCommandsStoppedAroundLogText() throws {
        let folder = try ScratchFolder("parselogs-gh")
        defer { withExtendedLifetime(folder) {} }  // the files stay until the test ends
        let stepSummary = try folder.write("summary.md", Data("# earlier step\n".utf8))
        // A log line that tries to issue a workflow command of its own.
        let path = try folder.write("hostile.log", Data("2014-03-02 09:14:05.001 Journal[412:60b] ::error::injected\n".utf8))

        let result = try Binary.run(["-v", "--format", "github", "fixtures/logshow.log", path], environment: ["GITHUB_STEP_SUMMARY": stepSummary])
        expectEqual(result.status, 1)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let first = try require(lines.first)
        expect(first.hasPrefix("::stop-commands::parselogs-"))
        let token = String(first.dropFirst("::stop-commands::".count))
        let resume = try require(lines.firstIndex(of: "::\(token)::"))
        let injected = try require(lines.firstIndex { $0.contains("::error::injected") })
        expect(injected < resume, "log text is printed while commands are stopped")
        let annotations = lines[(resume + 1)...].filter { !$0.isEmpty }
        expectEqual(annotations.first?.hasPrefix("::error title=parselogs%3A verdict (fails the run)::Verdict: broken%0A"), true, "the verdict fails the run")
        expectEqual(annotations.dropFirst(), [
            "::error file=\(path),title=parselogs%3A no evidence (fails the run)::\(path): no evidence (no Core Data sync records in 1 line); every --fail-on but none fails on a log with no evidence (--allow-no-evidence passes it)",
            "::error file=fixtures/logshow.log,line=6,title=parselogs%3A import-failed (fails the run)::Import failed for log 0C9B8A7F-6E5D-4C3B-2A19-F8E7D6C5B4A3.1.cdt: NSCocoaErrorDomain 260: The file “0C9B8A7F-6E5D-4C3B-2A19-F8E7D6C5B4A3.1.cdt” couldn’t be opened because there is no such file.; file: /Users/joe/Library/Mobile Documents/ABCDE12345~com~example~journal/CoreDataLogs/mac~11D2/JournalStore/0C9B8A7F-6E5D-4C3B-2A19-F8E7D6C5B4A3.1.cdt; underlying: NSPOSIXErrorDomain 2: No such file or directory",
            "::error file=fixtures/logshow.log,line=12,title=parselogs%3A import-failure-detected (fails the run)::Detected iCloud transaction log import failure.",
        ], "the errors of a broken log are what fails the run")
        let summary = try String(contentsOfFile: stepSummary, encoding: .utf8)
        expect(summary.hasPrefix("# earlier step\n## parselogs: broken\n"), "appended, not replaced")
    }

    /// Issue #41: `--fail-on` naming an info kind, a category or a severity fails the run, and
    /// each kind it fails on has an `::error` (info kinds keep no findings).
    @Test(arguments: [
        ("store-load-succeeded", ["store-load-succeeded": 5]),
        ("store", ["using-local-storage": 3, "store-load-succeeded": 5]),
        ("info", ["app": 1, "using-local-storage": 3, "store-load-succeeded": 5]),
    ])
    func githubErrorsMatchTheExitStatus(failOn: String, kinds: [String: Int]) throws {
        let result = try Binary.run(["--fail-on", failOn, "--format", "github", "fixtures/logshow.log"])
        expectEqual(result.status, 1)
        let errors = result.stdout.split(separator: "\n").filter { $0.hasPrefix("::error ") }
        expect(!errors.isEmpty, "exit status 1 with no ::error")
        for (kind, line) in kinds {
            expect(errors.contains { $0.hasPrefix("::error file=fixtures/logshow.log,line=\(line),title=parselogs%3A \(kind) (fails the run)::") }, "\(failOn): \(kind) in \(errors)")
        }
    }

    @Test func junitFailuresAreWhatFailsTheRunUnderStableNames() throws {
        let result = try Binary.run(["--format", "junit", example, ios6, "no-such.log"])
        expectEqual(result.status, 2)
        let document = try XMLDocument(data: Data(result.stdout.utf8))
        try expectEqual(document.nodes(forXPath: "/testsuites/testsuite/@name").map { $0.stringValue ?? "" }, ["parselogs", example, ios6, "no-such.log"])
        let failing = try document.nodes(forXPath: "//testcase[failure]").compactMap { ($0 as? XMLElement)?.attribute(forName: "name")?.stringValue }
        // The verdict fails the run (broken); so do the errors of the broken log and, the
        // other log being degraded (which --fail-on degraded fails), its warnings too.
        expectEqual(failing, ["verdict", "import-failed", "import-failure-detected", "cloud-corruption-detected",
                            "log-ahead-of-peer", "incompatible-operation-skipped", "baseline-roll-response-failed",
                            "baseline-recovery-scheduled", "metadata-recovery-started", "read"])
        try expectEqual(document.nodes(forXPath: "/testsuites/@failures").first?.stringValue, "10")
        try expectEqual(document.nodes(forXPath: "//testcase[@name='corruption-handling']/system-out").count, 1, "a warning of a broken log does not fail it: it passes, with the finding as output")
        try expectEqual(document.nodes(forXPath: "//testcase[@name='evidence']").count, 2, "a case per input read")

        let byKind = try Binary.run(["--format", "junit", "--fail-on", "import-failed", example])
        expectEqual(byKind.status, 1)
        let kinds = try XMLDocument(data: Data(byKind.stdout.utf8))
        let failingByKind = try kinds.nodes(forXPath: "//testcase[failure]").compactMap { ($0 as? XMLElement)?.attribute(forName: "name")?.stringValue }
        expectEqual(failingByKind, ["import-failed"], "the verdict passes when --fail-on names no verdict")
    }

    /// A case per finding, named by its kind and its place among that kind's in the input:
    /// the same names from run to run, however the lines move.
    @Test func junitHasACasePerFindingAndOnePerInputsEvidence() throws {
        let quota = try Binary.run(["--format", "junit", "fixtures/cloudkit/quota.log"])
        expectEqual(quota.status, 1)
        let document = try XMLDocument(data: Data(quota.stdout.utf8))
        let names = try document.nodes(forXPath: "//testsuite[@name='fixtures/cloudkit/quota.log']/testcase").compactMap { ($0 as? XMLElement)?.attribute(forName: "name")?.stringValue }
        expect(names.starts(with: ["read", "evidence", "cloudkit-quota-exceeded", "cloudkit-quota-exceeded #2"]))
        expect(!quota.stdout.contains(#"name="cloudkit-quota-exceeded:"#), "no line numbers in names")
        try expectEqual(document.nodes(forXPath: "//testcase[@name='cloudkit-quota-exceeded #2']/failure").count, 1, "each finding of a log whose verdict fails the run fails")

        let empty = try Binary.run(["--format", "junit", "--fail-on", "broken", "fixtures/scenarios/empty.log"])
        expectEqual(empty.status, 1)
        let noEvidence = try XMLDocument(data: Data(empty.stdout.utf8))
        let failing = try noEvidence.nodes(forXPath: "//testcase[failure]").compactMap { ($0 as? XMLElement)?.attribute(forName: "name")?.stringValue }
        expectEqual(failing, ["evidence"], "the verdict (no evidence) passes --fail-on broken; the gate on evidence fails it")
    }

    @Test func filtersChooseWhatIsShownNotWhatIsCounted() throws {
        let byKind = try Binary.run(["-v", "--kind", "transaction-log-written,changes-imported", example])
        let timeline = byKind.stdout.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
        expectEqual(timeline.count, 5)  // two events, a gap rule, the import's two objects
        expect(timeline.contains { $0.contains("Wrote transaction 12") })
        expect(byKind.stdout.contains("import failures  1"), "the summary counts everything")
        expectEqual(byKind.status, 1, "and so does the exit status")

        let byCategory = try Binary.run(["--format", "jsonl", "--category", "corruption", example])
        let records = byCategory.stdout.split(separator: "\n").dropFirst().dropLast()  // begin, summary
        expectEqual(records.count, 2)
        expect(records.allSatisfy { $0.contains(#""category":"corruption""#) })

        let byPattern = try Binary.run(["--format", "jsonl", "--grep", #"Code=1343\d\d"#, example])
        expectEqual(byPattern.stdout.split(separator: "\n").count, 3)  // begin, one record, the summary

        try expectEqual(Binary.run(["--kind", "no-such-kind", example]).status, 2)
        try expectEqual(Binary.run(["--category", "weather", example]).status, 2)
        let badPattern = try Binary.run(["--grep", "(unclosed", example])
        expectEqual(badPattern.status, 2)
        expect(badPattern.stderr.contains("missing closing parenthesis"))
    }

    /// Ctrl-C, SIGTERM and SIGHUP: the summary so far (with `--format github`, after the line
    /// that resumes workflow commands), then the process ends by that signal, so that a shell
    /// sees 128 + its number and a loop around the command stops.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP], [[], ["--format", "github"]])
    func aSignalPrintsTheSummarySoFarAndEndsByThatSignal(signal: Int32, format: [String]) throws {
        let live = try LiveBinary(format)
        live.write("2014-03-02 09:14:05.121 Journal[412:60b] UbiquityStoreManager: Will load cloud store.\n")
        // The signal comes once the line is read: the summary so far then holds its record.
        // (Waited for on the pipe, not the output: the github format shows nothing before it ends.)
        try require(live.waitForInputToBeRead(timeout: 60), "parselogs did not read its input")
        kill(live.process.processIdentifier, signal)
        live.process.waitUntilExit()
        live.finish()
        expectEqual(live.process.terminationReason, .uncaughtSignal)
        expectEqual(live.process.terminationStatus, signal)
        let text = live.collected.text
        expect(text.contains("Loading the cloud store"))
        expect(text.contains("store loads      1 attempted"))
        if !format.isEmpty {
            let lines = text.split(separator: "\n").map(String.init)
            let token = try require(lines.first?.dropFirst("::stop-commands::".count))
            expect(lines.contains("::\(token)::"), "workflow commands are resumed")
        }
    }

    /// A reader that stopped reading (a pager left open, a stuck pipe) leaves parselogs
    /// blocked in write(2); Ctrl-C must still end it.
    @Test func ctrlCEndsARunWhoseReaderHasStalled() throws {
        var log = Data()
        let one = try Data(contentsOf: URL(fileURLWithPath: Binary.fixture("example.log")))
        for _ in 0..<300 { log.append(one) }
        let folder = try ScratchFolder("parselogs-stall")
        defer { withExtendedLifetime(folder) {} }
        let path = try folder.write("big.log", log)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = ["-vvv", path]
        let output = Pipe()  // never read until the end: the pipe fills and the writer blocks
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until the output is stuck: the process sleeps with a full pipe. With /proc
        // (Linux), its main thread's state says so; without (macOS), the pipe holds bytes and
        // has held the same number for 300 ms: its writer is blocked.
        let mainThreadState = "/proc/\(process.processIdentifier)/task/\(process.processIdentifier)/stat"
        var polls = 0, stalled = false, unchanged = 0, lastUnread: Int32 = -1
        while polls < 1_000 {
            if TestPlatform.hasProcFS {
                stalled = ((try? String(contentsOfFile: mainThreadState, encoding: .utf8)) ?? "").contains(") S ")
            } else {
                var unread: Int32 = 0
                let counted = ioctl(output.fileHandleForReading.fileDescriptor, UInt(FIONREAD), &unread) == 0
                unchanged = counted && unread > 0 && unread == lastUnread ? unchanged + 1 : 0
                lastUnread = unread
                stalled = unchanged >= 30
            }
            if stalled { break }
            usleep(10_000)
            polls += 1
        }
        expect(stalled, "the output stalled before Ctrl-C was sent")
        usleep(200_000)
        kill(process.processIdentifier, SIGINT)
        var waited = 0
        while process.isRunning, waited < 600 {  // a minute at most: the test must not hang
            usleep(100_000)
            waited += 1
        }
        let ended = !process.isRunning
        if !ended { kill(process.processIdentifier, SIGKILL) }
        try output.fileHandleForReading.close()
        process.waitUntilExit()
        expect(ended, "Ctrl-C ended the run")
        expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT)
    }

    @Test func aReaderThatGoesAwayEndsTheRunQuietly() throws {
        var log = Data()
        let one = try Data(contentsOf: URL(fileURLWithPath: Binary.fixture("example.log")))
        for _ in 0..<200 { log.append(one) }
        let folder = try ScratchFolder("parselogs-pipe")
        defer { withExtendedLifetime(folder) {} }  // the files stay until the test ends
        let path = try folder.write("big.log", log)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = ["-vvv", path]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        _ = output.fileHandleForReading.readData(ofLength: 100)  // like `| head -c 100`
        try output.fileHandleForReading.close()
        process.waitUntilExit()
        expectEqual(process.terminationStatus, 0)
        expect(errors.fileHandleForReading.readDataToEndOfFile().isEmpty)
    }
}

@Suite struct TimeWindowTests {
    let example = "fixtures/example.log"

    @Test func sinceAndUntilChooseWhatIsRead() throws {
        let late = try Binary.run(["--format", "json", "--since", "2014-03-02 09:15", example])
        let summary = try require(JSONSerialization.jsonObject(with: Data(late.stdout.utf8)) as? [String: Any])
        expectEqual(summary["outsideTimeWindow"] as? Int, 20)  // all but the 9 records from 09:15:02 on
        expectEqual(summary["records"] as? Int, 29, "every record is still counted as read")
        let ubiquity = (summary["families"] as? [String: Any])?["ubiquity"] as? [String: Any]
        expectEqual((ubiquity?["storeLoads"] as? [String: Any])?["attempted"] as? Int, 0, "the load before 09:15 is not analysed")
        expectEqual(ubiquity?["importFailures"] as? Int, 1)
        expectEqual(late.status, 1)

        let early = try Binary.run(["-q", "--until", "2014-03-02 09:14:31", example])
        expectEqual(early.status, 0, "the failures after the window do not count")
        expect(early.stdout.contains("9 outside --since/--until"))

        let day = try Binary.run(["-q", "--since", "2014-03-02", "--until", "2014-03-02", example])
        expect(!day.stdout.contains("outside"), "a date covers its whole day")
    }

    @Test func badTimesAreUsageErrors() throws {
        for bad in ["yesterday", "2014-13-01", "2014-03-02 25:00", "24:00", "9:14", "09:14+0260"] {
            let result = try Binary.run(["--since", bad, example])
            expectEqual(result.status, 2, "\(bad)")
            expect(result.stderr.contains("--since"), "\(bad)")
        }
    }
}

@Suite struct CompressedInputTests {
    @Test func gzipFilesAreReadDirectly() throws {
        let plain = try Binary.run(["fixtures/example.log"])
        let compressed = try Binary.run(["fixtures/example.log.gz"])
        expectEqual(compressed.status, plain.status)
        expectEqual(compressed.stderr, "")
        expectEqual(compressed.stdout, plain.stdout.replacingOccurrences(of: "fixtures/example.log", with: "fixtures/example.log.gz"))
    }

    @Test func aCutOffGzipFileKeepsWhatItHasAndSaysWhere() throws {
        let result = try Binary.run(["-q", "fixtures/truncated.log.gz", "fixtures/logshow.log"])
        expectEqual(result.status, 2)
        expectEqual(result.stderr, "parselogs: fixtures/truncated.log.gz: line 27: gzip: unexpected end of file\n")
        expect(result.stdout.contains("read             40 lines, 23 records from 2 inputs"), "27 + 13 lines, the other input still read")
    }

    @Test func shellCompletionsAreGenerated() throws {
        for shell in ["bash", "zsh", "fish"] {
            let result = try Binary.run(["--generate-completion-script", shell])
            expectEqual(result.status, 0, "\(shell)")
            expect(result.stdout.contains("fail-on"), "\(shell)")
        }
    }
}
