// The command line at the edges of input (issue #41): UTF-16 named on stderr, an empty
// `--process`, an empty `scripts/install --prefix`.
import Foundation
import Testing
import TestSupport

@Suite struct InputEdgeCommandTests {
    @Test func utf16InputIsNamedOnStderrWithHowToConvertIt() throws {
        let text = try String(contentsOfFile: Binary.fixture("ios6-session.log"), encoding: .utf8)
        var bytes = Data([0xFF, 0xFE])
        for unit in text.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let result = try Binary.run(["-q"], stdin: bytes)
        expectEqual(result.status, 2)
        expectEqual(result.stderr, "parselogs: <stdin>: it is UTF-16 (little-endian) text, which parselogs does not read; convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8)\n")
        expect(result.stdout.contains("Verdict: no evidence"))
    }

    @Test func anEmptyProcessNameIsAUsageError() throws {
        for arguments in [["--process", "", "fixtures/example.log"], ["--process", " ", "fixtures/example.log"]] {
            let result = try Binary.run(arguments)
            expectEqual(result.status, 2, "\(arguments)")
            expect(result.stderr.contains("--process: the name is empty"), "\(result.stderr)")
            expect(result.stdout.isEmpty)
        }
        // `--process=` is a missing value to the argument parser.
        let bare = try Binary.run(["--process=", "fixtures/example.log"])
        expectEqual(bare.status, 2)
        expect(bare.stdout.isEmpty)
    }

    /// `scripts/install --prefix ''` installed into the current directory.
    @Test func installRefusesAnEmptyPrefix() throws {
        let script = Binary.packageRoot.appendingPathComponent("scripts/install").path
        for arguments in [["--prefix", ""], ["--prefix="]] {
            let result = try Binary.run(writingTo: nil, arguments, executable: script)
            expectEqual(result.status, 2, "\(arguments)")
            expectEqual(result.stderr, "install: --prefix needs a directory; it was empty\n")
        }
    }
}
