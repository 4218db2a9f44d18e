// What leaves parselogs: output that cannot be written is an error (status 2), never a
// success; a reader that goes away is a quiet end; nothing from outside (log text, file
// names, option values) reaches any stream in a form that a terminal or a CI runner obeys.
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

private let example = "fixtures/example.log"

/// Every way of running the binary that writes to standard output.
private let everyOutput: [[String]] = [
    [example], ["-q", example], ["-vvv", example], ["--unhandled", example],
    ["--format", "jsonl", example], ["--format", "json", example], ["--format", "markdown", example],
    ["--format", "github", example], ["--format", "junit", example],
    ["explain"], ["explain", "import-failed"], ["explain", "--help"], ["--help"], ["--version"],
]

@Suite struct WriteFailureTests {
    @Test(.enabled(if: TestPlatform.hasDevFull, "writes to /dev/full, which macOS does not have"), arguments: everyOutput)
    func aFullDiskIsAWriteErrorWithStatusTwo(arguments: [String]) throws {
        let result = try Binary.run(arguments, stdoutRedirection: ">/dev/full")
        expectEqual(result.status, 2)
        expect(result.stderr.hasSuffix("parselogs: write error: \(TestPlatform.errorText(ENOSPC))\n"), "\(result.stderr)")
    }

    @Test(arguments: everyOutput) func aClosedStandardOutputIsAWriteErrorWithStatusTwo(arguments: [String]) throws {
        let result = try Binary.run(arguments, stdoutRedirection: ">&-")
        expectEqual(result.status, 2)
        expect(result.stderr.hasSuffix("parselogs: write error: \(TestPlatform.errorText(EBADF))\n"), "\(result.stderr)")
    }

    /// A non-blocking standard output (set so by whoever shares the pipe) whose reader is
    /// slower than the writer: write(2) says EAGAIN, and every byte must still arrive.
    @Test func aNonBlockingOutputWaitsForItsSlowReader() throws {
        let arguments = ["--format", "jsonl"] + Array(repeating: example, count: 40)  // about 820 KB
        let expected = try Binary.run(arguments)
        expect(expected.stdout.utf8.count > 10 * 65_536, "more than a pipe holds")

        var ends: [Int32] = [0, 0]
        expectEqual(pipe(&ends), 0)
        expectEqual(fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK), 0)
        let writeEnd = FileHandle(fileDescriptor: ends[1], closeOnDealloc: false)
        let received = OutputCollector()
        let readEnd = ends[0]
        let reader = Thread {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                usleep(200)  // slower than the writer: the pipe fills up
                let count = read(readEnd, &chunk, chunk.count)
                if count <= 0 { break }
                received.append(Data(chunk[0..<count]))
            }
        }
        reader.start()
        let result = try Binary.run(writingTo: writeEnd, arguments)
        close(ends[1])  // the reader sees the end once the child's copy is gone too
        while !reader.isFinished { usleep(10_000) }
        close(readEnd)
        expectEqual(result.stderr, "")
        expectEqual(result.status, expected.status)
        expectEqual(received.text.utf8.count, expected.stdout.utf8.count)
        expectEqual(received.text, expected.stdout)
    }

    @Test func aStepSummaryThatCannotBeWrittenIsAnErrorAndTheRunStillEnds() throws {
        let folder = try ScratchFolder("parselogs-summary")
        defer { withExtendedLifetime(folder) {} }
        let fifo = folder.path("summary.fifo")
        expectEqual(mkfifo(fifo, 0o644), 0)
        var places: [(path: String, reason: String)] = [
            (folder.url.path, "is a directory"),
            (fifo, "a named pipe that nobody reads"),
        ]
        if geteuid() != 0 {
            let readOnly = try folder.write("read-only.md", Data())
            chmod(readOnly, 0o444)
            places.append((readOnly, TestPlatform.errorText(EACCES)))
        }
        for place in places { try expectStepSummaryFailure(place.path, place.reason) }
    }

    @Test(.enabled(if: TestPlatform.hasDevFull, "writes to /dev/full, which macOS does not have"))
    func aStepSummaryOnAFullDiskIsAWriteError() throws {
        try expectStepSummaryFailure("/dev/full", "write error: \(TestPlatform.errorText(ENOSPC))")
    }

    /// Read-only for everyone, root included (which may write a 0444 file).
    @Test(.enabled(if: TestPlatform.hasProcFS, "writes to /proc/version, which macOS does not have"))
    func aStepSummaryInAReadOnlyPlaceIsAnError() throws {
        try expectStepSummaryFailure("/proc/version", geteuid() == 0 ? "write error: \(TestPlatform.errorText(EIO))" : TestPlatform.errorText(EACCES))
    }

    /// A run with $GITHUB_STEP_SUMMARY at `path` fails with status 2 and `reason`, and still
    /// resumes workflow commands and writes its annotations.
    private func expectStepSummaryFailure(_ path: String, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try Binary.run(["--format", "github", example], environment: ["GITHUB_STEP_SUMMARY": path])
        expectEqual(result.status, 2, "\(path)", sourceLocation: sourceLocation)
        expectEqual(result.stderr, "parselogs: $GITHUB_STEP_SUMMARY: \(path): \(reason)\n", sourceLocation: sourceLocation)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let token = try require(lines.first?.dropFirst("::stop-commands::".count), sourceLocation: sourceLocation)
        expect(lines.contains("::\(token)::"), "commands are resumed", sourceLocation: sourceLocation)
        expect(lines.contains { $0.hasPrefix("::error ") }, "and the annotations written", sourceLocation: sourceLocation)
    }

    @Test func aReaderThatGoesAwayIsStillAQuietEnd() throws {
        let result = try Binary.run(["-vvv", example], stdoutRedirection: "| head -c 10 >/dev/null")
        expectEqual(result.stderr, "")
    }
}

@Suite struct OutsideTextTests {
    /// Text that tries both forms of GitHub workflow command, a line of its own and a
    /// terminal escape sequence.
    let hostile = "##[error]v1\n::error::v2\u{1B}[31m"

    private func expectInert(_ text: String, _ comment: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
        expect(!text.contains("\u{1B}"), comment, sourceLocation: sourceLocation)
        expect(!text.contains("##["), comment, sourceLocation: sourceLocation)
        expect(!text.split(separator: "\n").contains { $0.drop { $0 == " " || $0 == "\t" }.hasPrefix("::") }, comment, sourceLocation: sourceLocation)
    }

    @Test func aFileNameCannotIssueAWorkflowCommandOnStandardError() throws {
        let result = try Binary.run(["--format", "github", "##[error]injected", example])
        expectEqual(result.status, 2)
        expectEqual(result.stderr, "parselogs: \\x23#[error]injected: no such file\n")
    }

    @Test func fileNamesWithLineEndsAndEscapesStayOnOneLine() throws {
        let result = try Binary.run(["-q", "fixtures/\(hostile).log", example])
        expectEqual(result.status, 2)
        expectEqual(result.stderr, "parselogs: fixtures/\\x23#[error]v1\\x0A::error::v2\\x1B[31m.log: no such file\n")
        expectInert(result.stderr)
    }

    @Test(arguments: [
        ["--kind"], ["--category"], ["--since"], ["--until"], ["--fail-on"], ["--format"], ["--input-format"], ["explain"],
    ]) func optionValuesInUsageErrorsAreEscaped(option: [String]) throws {
        let result = try Binary.run(option + [hostile] + (option == ["explain"] ? [] : [example]))
        expectEqual(result.status, 2)
        expect(result.stderr.contains("\\x1B[31m"), "\(result.stderr)")
        expectInert(result.stderr, "\(result.stderr)")
    }

    @Test func unknownOptionsAreEscaped() throws {
        let result = try Binary.run(["--\(hostile)", example])
        expectEqual(result.status, 2)
        expect(result.stderr.hasPrefix("Error: Unknown option '--\\x23#[error]v1\\x0A::error::v2\\x1B[31m'\nUsage: parselogs"), "\(result.stderr)")
        expectInert(result.stderr)
    }

    @Test func logTextCannotIssueCommandsWhileTheyAreStopped() throws {
        let folder = try ScratchFolder("parselogs-inert")
        defer { withExtendedLifetime(folder) {} }
        let log = """
            2014-03-02 09:14:05.001 Journal[412:60b] CoreData: Ubiquity:  ##[error]v1 inside a line
            ::warning::at a line's start
              ::error::after blanks
            ##[set-output name=x]y

            """
        let path = try folder.write("##[error]name.log", Data(log.utf8))
        for verbosity in ["-vvv", "-vv", "-v", "-q"] {
            let result = try Binary.run(["--format", "github", verbosity, path])
            let lines = result.stdout.split(separator: "\n").map(String.init)
            let token = try require(lines.first?.dropFirst("::stop-commands::".count))
            expectEqual(token.count, "parselogs-".count + 32)
            let resume = try require(lines.firstIndex(of: "::\(token)::"))
            expectInert(lines[1..<resume].joined(separator: "\n"), "\(verbosity)")
            expect(result.stdout.contains("\\x23#[error]v1 inside a line") || verbosity == "-q")
        }
    }

    /// Outside the GitHub format nothing stops commands: each format keeps `##[` from log
    /// text and file names out of its output in its own syntax, and reads back the same.
    @Test func noFormatPrintsAWorkflowCommandFromTheLog() throws {
        let folder = try ScratchFolder("parselogs-v1")
        defer { withExtendedLifetime(folder) {} }
        var text = try String(contentsOfFile: Binary.fixture("example.log"), encoding: .utf8)
        let place = try require(text.range(of: "Could not read the transaction log"))
        text.replaceSubrange(place, with: "##[error]v1 ##[warning]again")
        let path = try folder.write("##[group]name.log", Data(text.utf8))
        for format in ["text", "jsonl", "json", "markdown", "junit"] {
            for verbosity in format == "text" ? ["-q", "", "-vvv"] : [""] {
                let result = try Binary.run(["--format", format] + (verbosity.isEmpty ? [] : [verbosity]) + [path])
                expectEqual(result.status, 1)
                expect(result.stdout.contains("v1"), "\(format) \(verbosity)")
                expectInert(result.stdout, "\(format) \(verbosity)")
            }
        }
        let json = try Binary.run(["--format", "json", path])
        let summary = try require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        expectEqual((summary["inputs"] as? [String])?.first, path, "read back as it was")
        let junit = try XMLDocument(data: Data(try Binary.run(["--format", "junit", path]).stdout.utf8))
        try expectEqual(junit.nodes(forXPath: "/testsuites/testsuite[2]/@name").first?.stringValue, path, "the first suite is the verdict's")
    }

    @Test func eachRunHasItsOwnUnguessableStopToken() throws {
        let tokens = try (0..<3).map { _ in
            try require(Binary.run(["--format", "github", "-q", example]).stdout.split(separator: "\n").first)
        }
        expectEqual(Set(tokens).count, 3)
        for token in tokens {
            let digits = token.dropFirst("::stop-commands::parselogs-".count)
            expect(digits.count == 32 && digits.allSatisfy(\.isHexDigit), "128 bits: \(token)")
        }
    }
}

@Suite struct CIFormatWellFormednessTests {
    /// The example log with its import failure's reason replaced by `reason` (bytes).
    private func example(withReason reason: [UInt8], in folder: ScratchFolder, name: String = "reason.log") throws -> String {
        let text = try String(contentsOfFile: Binary.fixture("example.log"), encoding: .utf8)
        // The first of the two places it stands (the record's first line, line 85).
        let place = try require(text.range(of: "Could not read the transaction log"))
        var bytes = Data(text[..<place.lowerBound].utf8)
        bytes.append(contentsOf: reason)
        bytes.append(Data(text[place.upperBound...].utf8))
        return try folder.write(name, bytes)
    }

    @Test func junitIsWellFormedWhateverTheLogHolds() throws {
        let folder = try ScratchFolder("parselogs-junit")
        defer { withExtendedLifetime(folder) {} }
        let reason = Array("nonchars \u{FFFE} \u{FFFF} controls \u{1} \u{1F} \u{7F} \u{85} end".utf8) + [0xFF, 0xC0]
        let path = try example(withReason: reason, in: folder, name: "bad\u{FFFF}\u{1}name.log")
        let result = try Binary.run(["--format", "junit", "--fail-on", "import-failed", path])
        expectEqual(result.status, 1)
        let document = try XMLDocument(data: Data(result.stdout.utf8))
        let failure = try require(document.nodes(forXPath: "//testcase[@name='import-failed']/failure/@message").first?.stringValue)
        expect(failure.contains(#"nonchars \u{FFFE} \u{FFFF} controls \x01 \x1F \x7F \u{85} end\xFF\xC0"#), "\(failure)")
        // The tool CI systems check JUnit files with, when it is installed.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/xmllint") {
            let xmlPath = try folder.write("out.xml", Data(result.stdout.utf8))
            let checked = try Binary.run(writingTo: nil, ["--noout", xmlPath], executable: "/usr/bin/xmllint")
            expectEqual(checked.status, 0, "\(checked.stderr)")
        }
    }

    @Test func bytesThatAreNotUTF8AreShownAsHexInFindingsAndErrorFields() throws {
        let folder = try ScratchFolder("parselogs-hex")
        defer { withExtendedLifetime(folder) {} }
        let path = try example(withReason: Array("Could ".utf8) + [0xFF, 0xFE] + Array(" not read".utf8), in: folder)
        // As each format writes a backslash: JSON and Markdown escape it, XML and text do not.
        for (format, shown) in [("jsonl", #"\\xFF\\xFE"#), ("json", #"\\xFF\\xFE"#), ("markdown", #"\\xFF\\xFE"#), ("junit", #"\xFF\xFE"#), ("text", #"\xFF\xFE"#)] {
            let result = try Binary.run(["--format", format, path])
            expect(!result.stdout.contains("\u{FFFD}"), "\(format)")
            expect(result.stdout.contains("Could \(shown) not read"), "\(format)")
        }
        let jsonl = try Binary.run(["--format", "jsonl", path])
        expect(jsonl.stdout.contains(#""reason":"Could \\xFF\\xFE not read""#))
    }

    @Test func aFileNameCannotBreakOutOfTheMarkdownTable() throws {
        let folder = try ScratchFolder("parselogs-md")
        defer { withExtendedLifetime(folder) {} }
        let path = try example(withReason: Array("Could not read".utf8), in: folder, name: "x|<img src=x onerror=alert(1)>|.log")
        let result = try Binary.run(["--format", "markdown", path])
        // The incidents table (four columns) and the findings table (three) each have a row.
        let rows = result.stdout.split(separator: "\n").filter { $0.hasPrefix("|") && $0.contains("import-failed") }
        expectEqual(rows.count, 2)
        for (row, columns) in zip(rows, [4, 3]) {
            // Cells end at a `|` that no backslash escapes.
            var separators = 0
            var previous: Character = " "
            for character in row {
                if character == "|", previous != "\\" { separators += 1 }
                previous = character
            }
            expectEqual(separators, columns + 1, "\(row)")
        }
    }

    @Test func logTextMakesNoLinksInMarkdown() throws {
        let folder = try ScratchFolder("parselogs-links")
        defer { withExtendedLifetime(folder) {} }
        let path = try example(withReason: Array("see https://evil.example/x or WWW.evil.example or admin@evil.example".utf8), in: folder)
        let result = try Binary.run(["--format", "markdown", path])
        let row = try require(result.stdout.split(separator: "\n").first { $0.contains("import-failed") })
        expect(row.contains(#"see https\://evil.example/x or WWW\.evil.example or admin\@evil.example"#), "\(row)")
    }

    @Test func longLogTextIsCutInMarkdownCellsAndSaysSo() throws {
        let folder = try ScratchFolder("parselogs-long")
        defer { withExtendedLifetime(folder) {} }
        let path = try example(withReason: Array(String(repeating: "y", count: 20_000).utf8), in: folder)
        let result = try Binary.run(["--format", "markdown", path])
        let row = try require(result.stdout.split(separator: "\n").first { $0.contains("import-failed") })
        expect(row.count < 1_200, "\(row.count)")
        expect(row.contains(" more characters cut)"))
    }
}
