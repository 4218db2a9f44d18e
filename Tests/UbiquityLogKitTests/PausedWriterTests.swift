import Foundation
import Testing
import TestSupport
@testable import UbiquityLogKit

/// A live pipe whose writer pauses inside a record: the record is shown at the pause, and the
/// lines that come after it still belong to it, in the summary and in JSON Lines.
@Suite struct PausedWriterTests {
    /// Gives its parts one read each, and says no input is waiting before each part after the
    /// first: the reader's idle time passes there, as on a pipe whose writer paused.
    struct PausingSource: ByteSource {
        var parts: [[UInt8]]
        var next = 0
        var waited = false

        init(_ parts: [String]) { self.parts = parts.map { Array($0.utf8) } }

        mutating func waitForInput(milliseconds: Int32) -> Bool {
            guard next > 0, next < parts.count, !waited else { return true }
            waited = true
            return false
        }

        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
            guard next < parts.count else { return 0 }
            let part = parts[next]
            next += 1
            waited = false
            precondition(part.count <= buffer.count)
            part.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: part.count) }
            return part.count
        }
    }

    static let failureStart = "2014-03-02 09:15:44.807 Journal[412:4e13] -[_PFUbiquityRecordsImporter operation:failedWithError:](1489): CoreData: Ubiquity:  Import operation encountered had trouble importing log file, Error Domain=NSCocoaErrorDomain Code=134302 \"The operation couldn’t be completed. (Cocoa error 134302.)\" UserInfo=0x15e9a2c0 {reason=Could not read the transaction log}\n"
    static let failureRest = " User Info: {\n    reason = \"Could not read the transaction log\";\n}\n The log file is at: /var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/CoreDataLogs/mobile~A3D19B52-7E0C-4F8A-B1D6-5C2E9F04A7B3/JournalStore/6F0D0A1E-8C55-4F4C-9C3A-1D2E3F4A5B6C/DAC8E3F1-2B4A-4C6D-8E9F-0A1B2C3D4E5F.1.cdt.\n"
    static let next = "2014-03-02 09:15:45.001 Journal[412:60b] UbiquityStoreManager: Will load cloud store.\n"

    private func run(_ parts: [String], threads: Bool) throws -> (summary: RunSummary, jsonl: [[String: Any]], text: String) {
        let jsonl = CapturedOutput()
        let text = CapturedOutput()
        let run = LogRun(catalog: try Catalog.standard(),
                         reporters: [JSONLinesReporter(output: jsonl.writer), TextReporter(output: text.writer, options: TextOptions(verbosity: 1))])
        run.usesThreads = threads
        var source = PausingSource(parts)
        try run.process(&source, name: "<stdin>")
        let summary = run.finish()
        let objects = jsonl.text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        return (summary, objects, text.text)
    }

    @Test(arguments: [false, true])
    func aContinuationAfterThePauseAmendsItsRecord(threads: Bool) throws {
        let (summary, objects, text) = try run([Self.failureStart, Self.failureRest + Self.next], threads: threads)
        expectEqual(summary.records, 2, "the failure is one record, counted once")
        expectEqual(summary.lines, 6)
        expectEqual(summary.ubiquity.importFailureCount, 1)
        let failure = try require(summary.ubiquity.importFailures.first)
        expect(failure.message.contains("DAC8E3F1-2B4A-4C6D-8E9F-0A1B2C3D4E5F.1.cdt"), "\(failure.message)")
        expect(!failure.message.contains("log ?"))
        let records = objects.filter { $0["type"] as? String == "record" }
        // Shown at the pause, then again with its later lines, marked as the one that counts.
        try require(records.count == 3, "\(records)")
        expect(records[0]["line"] as? Int == 1 && records[0]["lines"] as? Int == 1 && records[0]["amended"] == nil)
        expect(records[1]["line"] as? Int == 1 && records[1]["lines"] as? Int == 5 && records[1]["amended"] as? NSNumber == true)
        let fields = try require(records[1]["fields"] as? [String: Any])
        expectEqual(fields["log"] as? String, "DAC8E3F1-2B4A-4C6D-8E9F-0A1B2C3D4E5F.1.cdt")
        expectEqual(records[2]["kind"] as? String, "store-load-started")
        let jsonSummary = try require(objects.last)
        expectEqual(jsonSummary["records"] as? Int, 2)
        expectEqual(((jsonSummary["families"] as? [String: Any])?["ubiquity"] as? [String: Any])?["importFailures"] as? Int, 1)
        expect(text.contains("DAC8E3F1-2B4A-4C6D-8E9F-0A1B2C3D4E5F.1.cdt"))
    }

    /// Issue #41: a pause right after Xcode's two copies of an error, then more lines (the
    /// stderr copy shown at the pause, then again amended): still one failure and its echo.
    @Test(arguments: [false, true])
    func aPauseAfterAnErrorsTwoCopiesCountsTheEchoOnce(threads: Bool) throws {
        let message = "\(CKSample.delegate) - Never successfully initialized and cannot execute request '<NSCloudKitMirroringExportRequest: 0x600002a38f00> \(CKSample.request)' due to error: <CKError 0x600000c74a80: \"Permission Failure\" (10/2007); server message = \"Invalid bundle ID for container\"; op = 5A4B3C2D1E0F9A8B>"
        let method = "-[NSCloudKitMirroringDelegate _requestAbortedNotInitialized:]"
        let pair = CKSample.oslogError(method, 2183, message) + "\n" + CKSample.stderr("error", method, 2183, message) + "\n"
        for after in ["Saved recipe\n", "\tmore of the stderr copy\nSaved recipe\n"] {
            let (summary, _, _) = try run([pair, after], threads: threads)
            expectEqual(summary.countsByKind["cloudkit-container-not-linked"], 1, "\(after)")
            expectEqual(summary.countsByKind["cloudkit-echo"], 1, "\(after)")
            expectEqual(summary.warnings + summary.errors, 1, "\(after)")
        }
    }

    /// A pause after a record is whole: the record is shown once, and counted once.
    @Test(arguments: [false, true])
    func aPauseAfterAWholeRecordShowsItOnce(threads: Bool) throws {
        let (summary, objects, _) = try run([Self.failureStart + Self.failureRest, Self.next], threads: threads)
        expectEqual(summary.records, 2)
        let records = objects.filter { $0["type"] as? String == "record" }
        expectEqual(records.count, 2)
        expect(records.allSatisfy { $0["amended"] == nil })
    }

    /// Two pauses inside one record: shown at each, counted once at its end.
    @Test func twoPausesInOneRecord() throws {
        let lines: [String] = Self.failureRest.split(separator: "\n").map { String($0) + "\n" }
        let parts = [Self.failureStart, lines[0] + lines[1], lines[2] + lines[3], Self.next]
        let (summary, objects, _) = try run(parts, threads: false)
        expectEqual(summary.records, 2)
        expectEqual(summary.ubiquity.importFailureCount, 1)
        let records = objects.filter { $0["type"] as? String == "record" }
        expectEqual(records.map { $0["lines"] as? Int }, [1, 3, 5, 1])
        expectEqual(records.map { $0["amended"] as? NSNumber == true }, [false, true, true, false])
    }

    @Test func theAssemblerSaysWhetherAPreviewedRecordChanged() throws {
        let assembler = RecordAssembler(input: "t")
        func line(_ text: String, _ number: Int) -> Record? {
            Array(text.utf8).withUnsafeBytes { assembler.append(Line(bytes: $0, number: number, isTruncated: false)) }
        }
        expect(assembler.preview() == nil, "nothing open")
        _ = line("2014-03-02 09:14:07.318 Journal[412:60b] CoreData: Ubiquity:  x", 1)
        let first = try require(assembler.preview())
        expect(first.revision == .preview && first.lineCount == 1)
        expect(assembler.preview() == nil, "nothing new")
        _ = line("\tmore", 2)
        let second = try require(assembler.preview())
        expect(second.revision == .amendedPreview && second.lineCount == 2)
        let closed = try require(line("2014-03-02 09:14:08.318 Journal[412:60b] CoreData: Ubiquity:  y", 3))
        expect(closed.revision == .confirmed && closed.lineCount == 2)
        _ = assembler.preview()
        _ = line("\tthe rest", 4)
        let last = try require(assembler.finish())
        expect(last.revision == .amended && last.lineCount == 2 && last.textString.hasSuffix("the rest"))
        try expect(assemble("a\nb").allSatisfy { $0.revision == .whole })
    }
}
