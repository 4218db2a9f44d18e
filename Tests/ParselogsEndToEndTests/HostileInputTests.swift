// Logs are untrusted input. Whatever comes in, the binary keeps going, accounts for every
// line, keeps its memory bounded and prints nothing that can drive a terminal.
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Not serialized: each test writes only in its own scratch folder and measures only its own
/// child process (its peak resident size, its CPU time), so the tests may run side by side.
@Suite struct HostileInputTests {
    /// Swift Testing makes a suite value per test: each test's files go when it ends.
    private let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder("parselogs-hostile") }

    /// A scratch file holding `bytes`, removed at the end of the test.
    private func file(_ name: String, _ bytes: Data) throws -> String { try scratch.write(name, bytes) }

    /// Whether this build is instrumented by a sanitizer (then so is the binary under test,
    /// whose shadow memory and quarantine make resident size meaningless as a bound).
    private var isSanitized: Bool {
        let everything = TestPlatform.everyImage  // RTLD_DEFAULT
        return dlsym(everything, "__asan_init") != nil || dlsym(everything, "__tsan_init") != nil
    }

    private func summaryLines(_ result: RunResult) -> String {
        result.stdout.split(separator: "\n").drop { !$0.hasPrefix("Summary") }.joined(separator: "\n")
    }

    @Test func randomBytes() throws {
        var generator = SystemRandomNumberGenerator()
        var bytes = Data(count: 2_000_000)
        bytes.withUnsafeMutableBytes { buffer in  // eight random bytes a call
            for offset in stride(from: 0, to: buffer.count, by: 8) { buffer.storeBytes(of: generator.next(), toByteOffset: offset, as: UInt64.self) }
        }
        let path = try file("random.bin", bytes)
        let result = try Binary.run(["-vv", path])
        expect(result.status == 0 || result.status == 1)
        expectEqual(result.stderr, "")
        let lines = bytes.filter { $0 == 0x0A }.count + (bytes.last == 0x0A ? 0 : 1)
        expect(summaryLines(result).contains("read             \(lines) lines"))
        expect(!result.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" || $0.value == 0x7F || (0x80...0x9F).contains($0.value) }, "no control character reaches the output")
    }

    @Test func nulBytesAndBrokenUTF8AreShownEscaped() throws {
        var bytes = Data("2014-03-02 09:14:05.001 Journal[412:60b] nul\u{0}here\n".utf8)
        bytes.append(contentsOf: Array("2014-03-02 09:14:05.002 Journal[412:60b] overlong ".utf8) + [0xC0, 0xAF] + Array(" surrogate ".utf8) + [0xED, 0xA0, 0x80] + Array(" cut ".utf8) + [0xE2, 0x82, 0x0A])
        bytes.append(contentsOf: Array("CoreData: Ubiquity:  ".utf8) + [0x00, 0xFF, 0x0A])
        let result = try Binary.run(["-vv"], stdin: bytes)
        expectEqual(result.status, 1)
        expect(result.stdout.contains("Verdict: unknown (1 of 1 ubiquity records not recognised)"), "its one sync record is unread")
        expect(result.stdout.contains("nul\\x00here"))
        expect(result.stdout.contains("overlong \\xC0\\xAF surrogate \\xED\\xA0\\x80 cut \\xE2\\x82"))
        expect(result.stdout.contains("[unhandled] \\x00\\xFF"))
        let json = try Binary.run(["--format", "jsonl"], stdin: bytes)
        for line in json.stdout.split(separator: "\n") {
            expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line)")
        }
    }

    @Test func aFiftyMegabyteLineIsCutAndMemoryStaysBounded() throws {
        var bytes = Data("2014-03-02 09:14:05.001 Journal[412:60b] CoreData: Ubiquity:  ".utf8)
        bytes.append(Data(repeating: UInt8(ascii: "x"), count: 50 << 20))
        bytes.append(Data("\nUbiquityStoreManager: Will load cloud store.\n".utf8))
        let path = try file("long-line.log", bytes)
        let result = try Binary.run(["-q", path])
        expectEqual(result.status, 1)
        expect(summaryLines(result).contains("Verdict: unknown (1 of 2 ubiquity records not recognised)"), "the cut record is not recognised")
        expect(summaryLines(result).contains("read             2 lines, 2 records from 1 input (1 truncated)"))
        expect(summaryLines(result).contains("store loads      1 attempted"))
        let measured = try Binary.peakMemoryKiB(["--format", "jsonl", path], until: "store-load-started")
        expect(measured.stdout.contains(#""truncated":true"#))
        expect(isSanitized || (measured.peakKiB > 0 && measured.peakKiB < 100 * 1024), "peak \(measured.peakKiB) KiB")
    }

    @Test func twoHundredThousandContinuationLinesAreCappedAndCounted() throws {
        var text = "2014-03-02 09:14:05.001 Journal[412:60b] CoreData: Ubiquity:  Changes applied for transaction log content, managed object context changes: \n"
        text += String(repeating: "    title = x;\n", count: 200_000)
        text += "UbiquityStoreManager: Successfully loaded cloud store.\n"
        let path = try file("long-record.log", Data(text.utf8))
        let result = try Binary.run(["--format", "jsonl", path])
        expectEqual(result.status, 0)
        let records = result.stdout.split(separator: "\n").dropFirst()  // the begin message
        expectEqual(records.first?.contains(#""lines":200001"#), true)
        expectEqual(records.first?.contains(#""truncated":true"#), true)
        expectEqual(records.last?.contains(#""lines":200002"#), true)
        let measured = try Binary.peakMemoryKiB(["--format", "jsonl", path], until: "store-load-succeeded")
        expect(isSanitized || (measured.peakKiB > 0 && measured.peakKiB < 100 * 1024), "peak \(measured.peakKiB) KiB")
    }

    @Test func crOnlyLineEndsEndLinesAndALoneCRIsShownEscaped() throws {
        // Without an LF, CRs end the lines (the classic Mac OS's text files).
        let result = try Binary.run(["-v"], stdin: Data("first\rsecond\rthird".utf8))
        expectEqual(result.status, 1, "no sync records: no evidence")
        expect(summaryLines(result).contains("Verdict: no evidence (no Core Data sync records in 3 lines)"), "\(result.stdout)")
        expect(summaryLines(result).contains("read             3 lines, 1 record"), "\(result.stdout)")
        expect(!result.stdout.contains("\\x0D"), "\(result.stdout)")
        // With one, lines end at LF (as for `wc -l`); a lone CR is part of its line, shown escaped.
        let mixed = try Binary.run(["-v"], stdin: Data("first\rsecond\rthird\n".utf8))
        expect(summaryLines(mixed).contains("Verdict: no evidence (no Core Data sync records in 1 line)"))
        expect(mixed.stdout.contains("[app] first\\x0Dsecond\\x0Dthird"))
        expect(summaryLines(mixed).contains("read             1 line, 1 record"))
    }

    @Test func anInputThatEndsMidRecordKeepsWhatItHas() throws {
        let cut = "2014-03-02 09:14:31.518 Journal[412:3d07] -[_PFUbiquityRecordsExporter createDictionaryForObjectsInSaveNotification:forTransactionOfType:withExportContext:andSaveSnapshot:](293): CoreData: Ubiquity:  <_PFUbiquityRecordsExporter: 0x15d6a0f0>\n exporting inserted objects: {(\n    <Entry: 0x15e4c9d0> (entity: Entry; id: 0x15e4a1b0 <x-coredata://8F3A/Entry/p12> ; data: {\n    title = Wa"
        let result = try Binary.run(["-v"], stdin: Data(cut.utf8))
        expectEqual(result.status, 0)
        expect(result.stdout.contains("+ Entry/p12: title = Wa"))
        expect(summaryLines(result).contains("read             4 lines, 1 record"))
    }

    @Test(.enabled(if: TestPlatform.hasProcFS, "reads /proc/self/mem for a real EIO from read(2); macOS has no /proc"))
    func aReadErrorPartWayIsStatus2WithInputAndLine() throws {
        // Reading /proc/self/mem from its start fails with EIO: a real read(2) error.
        let result = try Binary.run(["/proc/self/mem", "fixtures/logshow.log"])
        expectEqual(result.status, 2)
        expect(result.stderr.hasPrefix("parselogs: /proc/self/mem: line 1: "))
        expect(result.stdout.contains("Loaded the cloud store"), "the next input is still read")
    }

    @Test(.enabled(if: getuid() != 0, "root reads files whatever their permissions"))
    func anUnreadableFileIsStatus2() throws {
        let path = try file("secret.log", Data("x\n".utf8))
        chmod(path, 0)
        let result = try Binary.run([path, "fixtures/logshow.log"])
        expectEqual(result.status, 2)
        expect(result.stderr.contains("\(path): permission denied"))
    }

    @Test(.enabled(if: TestPlatform.hasProcFS, "reads the live child's CPU time from /proc/PID/stat; macOS has no /proc"))
    func anInputThatStopsArrivingCostsNoCPU() throws {
        let live = try LiveBinary(["-q"])
        live.write("2014-03-02 09:14:05.121 Journal[412:60b] UbiquityStoreManager: Will load\n")
        Thread.sleep(forTimeInterval: 3)
        // utime and stime (fields 14 and 15 of /proc/PID/stat) in clock ticks.
        let stat = (try? String(contentsOfFile: "/proc/\(live.process.processIdentifier)/stat", encoding: .utf8)) ?? ""
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        let ticks = fields.count > 12 ? (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) : -1
        expectEqual(live.finish(), 1, "unknown: its one record is not recognised")
        expect(ticks >= 0, "could not read /proc stat")
        expect(ticks < Int(sysconf(Int32(_SC_CLK_TCK))) / 2, "\(ticks) ticks of CPU in 3 idle seconds")
    }
}
