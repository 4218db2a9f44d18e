// A headline's pieces made from bytes where they can be (`Headline.withRootCause`,
// `namingLogs`, `matchedLine`) say what the Character-by-Character versions said.
import Testing
@testable import UbiquityLogKit
import TestSupport

@Suite struct HeadlineTextTests {
    let error = ErrorInfo(domain: "NSCocoaErrorDomain", code: 134302, reason: "no store")

    /// The words before an error, trimmed as Characters (the way it was done before).
    func reference(_ line: String) -> String {
        var words = Substring(line)
        if let printed = line.firstRange(ofASCII: "Error Domain=") { words = line[..<printed.lowerBound] }
        while let last = words.last, last == " " || last == ":" || last == "," || last == "(" || last == "-" || last == "\t" {
            words.removeLast()
        }
        return words.isEmpty ? error.oneLine : "\(words): \(error.oneLine)"
    }

    @Test(arguments: [
        "Import failed: Error Domain=NSCocoaErrorDomain Code=134302",
        "Import failed (Error Domain=NSCocoaErrorDomain Code=134302",
        "Import failed -\t, Error Domain=X Code=1",
        "Error Domain=NSCocoaErrorDomain Code=134302",
        " :- Error Domain=X Code=1",
        "Échec de l’import : Error Domain=X Code=1",
        "import é - Error Domain=X Code=1",
        "a prepended mark \u{600} - Error Domain=X Code=1",
        "a combining mark -\u{301} Error Domain=X Code=1",
        "no error printed, words end with a dash -",
        "no error printed, words end with a dash -\u{301}",
    ])
    func theWordsBeforeAnErrorAreTrimmedAsCharacters(line: String) {
        expectEqual(Headline.withRootCause(line, error), reference(line))
    }

    @Test func aLineWithoutALogObjectIsGivenBackAsItIs() {
        expectEqual(Headline.namingLogs("Imported log x.1.cdt", log: "y.2.cdt"), "Imported log x.1.cdt")
        expectEqual(Headline.namingLogs("Failed <PFUbiquityTransactionLog: 0x1d5e3f20> twice", log: "y.2.cdt"), "Failed y.2.cdt twice")
        expectEqual(Headline.namingLogs("Failed <PFUbiquityTransactionLog: 0x1d5e3f20>", log: nil), "Failed a transaction log")
    }

    /// An app's line has no match in its text: its matched line's bytes (what JSON Lines writes)
    /// are the first line of its message trimmed of blanks, as the String of it is made.
    @Test func anAppLinesBytesAreItsFirstLineOfMessage() throws {
        let records = try classify([
            "2014-03-02 09:14:00.019 dasd[119:644] Location icon should now be in state 'Inactive'",
            "2014-03-02 09:14:00.019 dasd[119:644] \t padded on both sides \t ",
            "2014-03-02 09:14:00.019 dasd[119:644] Error (cause:1): an app's own words\n  and a second line",
            "2014-03-02 09:14:00.019 dasd[119:644] ",
            "2014-03-02 09:14:00.019 dasd[119:644] caf\u{E9} \u{1F600}",
            "a line with no header, the record's second line",
        ].joined(separator: "\n"))
        expectEqual(records.count, 5)
        for (record, classification) in records {
            let item = ClassifiedRecord(record: record, classification: classification)
            guard case .app = item.event else { continue }
            let expected = record.firstBodyText.trimmingCharacters(in: " \t")
            let bytes = try require(Headline.plainMatchedLine(item))
            expectEqual(bytes.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }, expected, "line \(record.firstLine)")
            expectEqual(Headline.matchedLine(item), expected, "line \(record.firstLine)")
        }
        expect(records.filter { if case .app = $0.classification.event { true } else { false } }.count >= 4)
    }
}
