// Every way bytes reach parselogs: --grep over any bytes, inputs opened once (pipes, FIFOs,
// /dev/stdin), gzip on any of them, file names that are not UTF-8, many file arguments.
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

@Suite struct InputPathTests {
    private let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder("parselogs-inputs") }

    @Test(arguments: [#"(*UTF)\p{L}"#, #"(*UTF)(*UCP)\w"#, #"(*UTF)\X"#, #"(*UTF)\p{Han}"#])
    func grepInUTFModeSurvivesBytesThatAreNotUTF8(pattern: String) throws {
        var bytes = Data([0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0x0A])
        bytes.append(Data("2014-03-02 09:14:05.121 Journal[412:60b] UbiquityStoreManager: Will load \u{FF}".utf8))
        bytes.append(contentsOf: [0xC3, 0x0A])
        let result = try Binary.run(["-v", "--fail-on", "none", "--grep", pattern], stdin: bytes)
        expectEqual(result.status, 0, "\(result.stderr)")
        expect(result.stdout.contains("Summary"))
    }

    @Test func grepThatHitsTheMatchLimitShowsTheRecordAndSaysSo() throws {
        let hostile = "2014-03-02 09:14:05.121 Journal[412:60b] UbiquityStoreManager: " + String(repeating: "x", count: 40) + "!y\n"
        let plain = "2014-03-02 09:14:06.121 Journal[412:60b] UbiquityStoreManager: nothing to see\n"
        let result = try Binary.run(["-vv", "--fail-on", "none", "--grep", #"(?:x+x+)+y"#], stdin: Data((hostile + plain).utf8))
        expectEqual(result.status, 0)
        expect(result.stdout.contains("xxxx!y"), "the record the pattern gave up on is shown")
        expect(!result.stdout.contains("nothing to see"), "a record that does not match is still hidden")
        expectEqual(result.stderr, "parselogs: --grep: the pattern hit PCRE2's match limit on 1 record, shown unfiltered; simplify the pattern (less backtracking) to filter them\n")
    }

    private var exampleBytes: Data { get throws { try Data(contentsOf: URL(fileURLWithPath: Binary.fixture("example.log"))) } }
    private var exampleGzip: Data { get throws { try Data(contentsOf: URL(fileURLWithPath: Binary.fixture("example.log.gz"))) } }

    /// Runs `script` in sh with $P the binary, in the scratch folder: for inputs Foundation's
    /// Process cannot make (FIFOs written concurrently, process substitution, byte file names).
    private func shell(_ script: String) throws -> RunResult {
        try Binary.run([], environment: [:], executable: "/bin/sh", arguments: ["-c", script, "sh", Binary.path], in: scratch.path(""))
    }

    @Test func aFIFOIsReadWholeOnce() throws {
        try exampleBytes.write(to: URL(fileURLWithPath: scratch.path("example.log")))
        let result = try shell(#"mkfifo f && { cat example.log > f & } && "$1" --format jsonl f | sed -n 2p"#)
        expect(result.stdout.hasPrefix(#"{"type":"record","input":"f","line":1,"lines":1,"time":"2014-03-02T09:14:05.001""#), "\(result.stdout)")
    }

    @Test func slashDevStdinAndDashLoseNoBytes() throws {
        for name in ["/dev/stdin", "-"] {
            let result = try Binary.run(["--format", "jsonl", name], stdin: try exampleBytes)
            let first = result.stdout.split(separator: "\n").dropFirst().first ?? ""
            expect(first.contains(#""line":1,"lines":1,"time":"2014-03-02T09:14:05.001""#), "\(name): \(first)")
        }
    }

    @Test func gzipOnStandardInputIsDecompressed() throws {
        let fromFile = try Binary.run(["-q", "fixtures/example.log"])
        for arguments in [["-q"], ["-q", "/dev/stdin"]] {
            let fromStdin = try Binary.run(arguments, stdin: try exampleGzip)
            expectEqual(fromStdin.status, 1)
            expect(fromStdin.stdout.contains("read             96 lines, 29 records from 1 input"), "\(fromStdin.stdout)")
            expectEqual(fromStdin.stdout.replacingOccurrences(of: "<stdin>", with: "fixtures/example.log").replacingOccurrences(of: "/dev/stdin", with: "fixtures/example.log"), fromFile.stdout)
        }
    }

    @Test func concatenatedGzipMembersAreAllRead() throws {
        let path = try scratch.write("two.log.gz", try exampleGzip + exampleGzip)
        let result = try Binary.run(["-q", path])
        expectEqual(result.stderr, "")
        expect(result.stdout.contains("read             192 lines"), "\(result.stdout)")
    }

    @Test func textAfterAGzipMemberIsStatus2AndNamed() throws {
        let path = try scratch.write("mixed.log.gz", try exampleGzip + Data("2014-03-02 09:14:05.001 Journal[412:60b] appended\n".utf8))
        let result = try Binary.run(["-q", path])
        expectEqual(result.status, 2)
        expectEqual(result.stderr, "parselogs: \(path): line 97: gzip: data after the compressed data is not gzip; it was not read\n")
        expect(result.stdout.contains("read             96 lines"))
    }

    @Test func aBadChecksumKeepsTheLinesAndIsStatus2() throws {
        var damaged = try exampleGzip
        damaged[damaged.count - 8] ^= 0xFF
        let path = try scratch.write("crc.log.gz", damaged)
        let result = try Binary.run(["-q", path])
        expectEqual(result.status, 2)
        expect(result.stderr.hasPrefix("parselogs: \(path): line 97: gzip: incorrect data check"), "\(result.stderr)")
        expect(result.stdout.contains("read             96 lines"), "like gzip -dc, every line before the check is kept")
    }

    @Test(.enabled(if: TestPlatform.takesFileNamesThatAreNotUTF8, "makes a file whose name is not UTF-8, which macOS's file systems refuse"))
    func aFileNameThatIsNotUTF8IsOpenedAndShownEscaped() throws {
        let result = try shell(#"printf '2014-03-02 09:14:05.121 Journal[412:60b] UbiquityStoreManager: Will load\n' > "$(printf 'caf\351.log')" && "$1" -v "$(printf 'caf\351.log')" "$(printf 'caf\350.log')""#)
        expectEqual(result.status, 2)
        expect(result.stdout.contains("Will load"), "\(result.stdout)")
        expectEqual(result.stderr, "parselogs: caf\\xE8.log: no such file\n")
    }

    @Test func aTimeBoundThatIsNoDayOrAnEmptyWindowIsAUsageError() throws {
        let noDay = try Binary.run(["--since", "2014-02-31", "fixtures/example.log"])
        expectEqual(noDay.status, 2)
        expect(noDay.stderr.contains("--since: '2014-02-31' is not a time"), "\(noDay.stderr)")
        let backwards = try Binary.run(["--since", "2014-03-03", "--until", "2014-03-02 23:00", "fixtures/example.log"])
        expectEqual(backwards.status, 2)
        expect(backwards.stderr.contains("--since 2014-03-03 is after --until 2014-03-02 23:00"), "\(backwards.stderr)")
        expect(backwards.stdout.isEmpty)
        let sameDay = try Binary.run(["-q", "--since", "2014-03-02", "--until", "2014-03-02", "fixtures/example.log"])
        expect(sameDay.stderr.isEmpty, "a one-day window is not empty")
    }

    @Test func aClockGoingBackwardsPrintsNoNegativeDuration() throws {
        let log = """
            2014-03-02 09:14:10.000 Journal[412:60b] UbiquityStoreManager: Will load cloud store.
            2014-03-02 09:14:04.700 Journal[412:60b] UbiquityStoreManager: Successfully loaded cloud store.
            2014-13-45 99:99:99.999 Journal[412:60b] UbiquityStoreManager: Will load cloud store.
            """
        let result = try Binary.run(["--format", "jsonl"], stdin: Data(log.utf8))
        expect(!result.stdout.contains("-5"), "\(result.stdout)")
        expect(result.stdout.contains(#""line":3,"lines":1,"time":null"#), "an impossible time is not passed on as a time")
        let text = try Binary.run([], stdin: Data(log.utf8))
        expect(!text.stdout.contains("in -"), "\(text.stdout)")
    }

    @Test func filesAmongOptionsAreAllRead() throws {
        // File names are set aside before the options are parsed: wherever they stand, with
        // options before, between and after them, and after `--`.
        let dashed = try scratch.write("-dashed.log", Data("2014-03-02 09:14:05.121 Journal[412:60b] UbiquityStoreManager: Will load cloud store.\n".utf8))
        let result = try Binary.run(["fixtures/example.log", "--fail-on", "none", "-q", "fixtures/ios6-session.log", "--format=json", "--", dashed])
        expectEqual(result.status, 0, "\(result.stderr)")
        expect(result.stdout.contains(#""lines":192"#), "96 + 95 + 1 lines")
    }

    @Test func everyOptionWithAValueTakesTheNextArgument() throws {
        // An option --help shows with a value must take the next argument as it, not leave it
        // to be read as a file name.
        let help = try Binary.run(["--help"]).stdout
        let options = help.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard words.count >= 2, words[0].hasPrefix("--"), words[1].hasPrefix("<") else { return nil }
            return String(words[0])
        }
        expect(options.count >= 10, "\(options)")
        for option in options {
            let result = try Binary.run([option, "zzz-not-a-file", "fixtures/example.log"])
            expect(!result.stderr.contains("Missing value"), "\(option): \(result.stderr)")
            expect(!result.stderr.contains("zzz-not-a-file: no such file"), "\(option): \(result.stderr)")
        }
    }
}

