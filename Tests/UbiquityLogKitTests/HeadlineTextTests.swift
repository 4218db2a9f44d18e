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
}
