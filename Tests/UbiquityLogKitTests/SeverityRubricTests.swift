// Severities from consequences (issue #28, item 4): the records whose level Apple's wording
// overstated or understated, found in several header styles, with the severity, the words
// and the verdict the rubric gives them.
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct SeverityRubricTests {
    static let root = "/var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/CoreDataLogs"

    /// The header styles a record arrives in: iOS 7 Xcode console, device console, iOS 6
    /// (no method), and a paste that lost its header.
    static func styles(_ method: String, _ message: String) -> [String] {
        [
            "2014-03-02 09:14:07.318 Journal[412:60b] \(method)(1139): CoreData: Ubiquity:  \(message)",
            "Mar  2 09:14:07 Joes-iPad Journal[412] <Warning>: \(method)(1156): CoreData: Ubiquity: \(message)",
            "2012-11-20 18:02:41.770 Journal[233:1303] CoreData: Ubiquity:  \(message)",
            "CoreData: Ubiquity:  \(message)",
        ]
    }

    /// iOS 6 meets a file it cannot place in the content folder: Core Data skips it and goes
    /// on. At most a warning, naming the file, with advice about the content URL.
    @Test(arguments: styles("+[PFUbiquityLocation createUbiquityLocationForPath:withUbiquityRootLocation:]",
                            "Unable to continue parse components of URL: file://localhost\(root)/Notes/shopping.txt\nConfused by: Notes"))
    func aStrayFileInTheContainerIsAWarning(_ log: String) throws {
        let (text, summary) = try timeline(log)
        let event = try require(classify(log).first).classification.event
        expectEqual(event.kind, .containerStrayFile)
        expectEqual(event.severity, .warning)
        expect(event.fields.contains(Field("file", .string("shopping.txt"))))
        expect(event.fields.contains(Field("confusedBy", .string("Notes"))))
        expect(text.contains("WARN  Cannot place shopping.txt in the ubiquity content folder, confused by Notes: file://localhost\(Self.root)/Notes/shopping.txt"))
        expect(summary.errors == 0 && summary.verdict == .degraded)
        let action = try require(EventKind.containerStrayFile.guidance.action)
        expect(action.contains("NSPersistentStoreUbiquitousContentURLKey") && !action.contains("free space"))
    }

    /// A cut paste: the `Confused by:` line lost. Still the same event and file.
    @Test func aStrayFileWithoutItsSecondLine() throws {
        let event = try require(classify("CoreData: Ubiquity:  Unable to continue parse components of URL: file://\(Self.root)/stray.plist").first).classification.event
        expectEqual(event.kind, .containerStrayFile)
        expect(event.fields.contains(Field("file", .string("stray.plist"))))
    }

    /// A peer whose logs carry another model version hash: its logs never import here. A
    /// warning that names the peer, from the log's path, in iOS 7 and iOS 6 peer spellings.
    @Test(arguments: [
        ("mobile~A3D19B52-7E0C-4F8A-B1D6-5C2E9F04A7B3", "<PFUbiquityLocation: 0x15e53120>: \(root)/mobile~A3D19B52-7E0C-4F8A-B1D6-5C2E9F04A7B3/JournalStore/Qm9vaw==/DAC8E3F1-2B4A-4C6D-8E9F-0A1B2C3D4E5F.4.cdt"),
        ("mobile.A3D19B527E0C4F8AB1D65C2E9F04A7B3", "<PFUbiquityLocation: 0x1e5c1a20>: /private/var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/Logs/mobile.A3D19B527E0C4F8AB1D65C2E9F04A7B3/JournalStore/Qm9vaw==/5E4D3C2B-1A09-48F7-96E5-D4C3B2A19087.4.cdt"),
        ("mac~11D2AB34-5566-4788-99AA-BBCCDDEEFF00", "file://\(root)/mac~11D2AB34-5566-4788-99AA-BBCCDDEEFF00/JournalStore/Qm9vaw==/0C9B8A7F.1.cdt"),
    ])
    func aPeerOnAnotherModelVersionIsAWarningNamingIt(_ peer: String, _ location: String) throws {
        for log in Self.styles("-[_PFUbiquityRecordsImporter createSortedOperationsArrayWithMetadata:isFirstImport:]", "Skipping (model version hash): \(location)") {
            let event = try require(classify(log).first).classification.event
            expectEqual(event.kind, .peerModelMismatch, "\(log)")
            expectEqual(event.severity, .warning)
            expect(event.fields.contains(Field("peer", .string(peer))), "\(log)")
            let (text, summary) = try timeline(log)
            expect(text.contains("WARN  Skipping the logs of peer \(peer): written with another model version, never imported here"), "\(log)")
            expectEqual(summary.verdict, .degraded)
            expectEqual(summary.verdicts.first?.evidence.first?.contains(peer), true)
        }
    }

    /// The file presenter's and the importer's CloudDocs errors: file transfers that failed,
    /// shown with their code; a warning (the changes wait for a transfer), not an error.
    @Test(arguments: [
        ("-[PFUbiquityFilePresenter processPendingURLs]_block_invoke", "Librarian returned a serious error for starting downloads"),
        ("-[_PFUbiquityRecordsImporter batchDownloadTransactionLogsAtLocations:error:]_block_invoke", "Librian returned a serious error for starting downloads"),
    ])
    func cloudDocsErrorsAreFileTransfersWithTheirCode(_ method: String, _ words: String) throws {
        let error = #"Error Domain=BRCloudDocsErrorDomain Code=12 "The operation couldn’t be completed. (BRCloudDocsErrorDomain error 12 - Logged out - iCloud Drive is not configured)""#
        for log in Self.styles(method, "\(words) \(error) with userInfo {\n} for these urls: (\n    \"file://\(Self.root)/x.1.cdt\"\n)") {
            let event = try require(classify(log).first).classification.event
            expectEqual(event.kind, .fileTransferFailed, "\(log)")
            expect(event.error?.domain == "BRCloudDocsErrorDomain" && event.error?.code == 12)
            let (text, summary) = try timeline(log)
            expect(text.contains("WARN  \(words): BRCloudDocsErrorDomain 12: Logged out - iCloud Drive is not configured"), "\(log)")
            expectEqual(summary.verdict, .degraded)
        }
    }

    /// Housekeeping on a log already written (its modification time, an external data file
    /// left over) puts no change at risk: a warning, not an error.
    @Test(arguments: [
        ("+[PFUbiquityTransactionLog updateModificationTimesForLocation:]", "Error encountered while updating the modification time for file (1): <PFUbiquityLocation: 0x1>: \(root)/x.1.cdt"),
        ("-[PFUbiquityTransactionLog cleanupExternalDataReferences]_block_invoke", "Encountered an error attempting to remove external data reference (ABC): Error Domain=NSCocoaErrorDomain Code=4 \"(null)\"\nuserInfo: {\n}"),
    ])
    func logHousekeepingIsAWarning(_ method: String, _ message: String) throws {
        for log in Self.styles(method, message) {
            let event = try require(classify(log).first).classification.event
            expectEqual(event.kind, .logFileProblem, "\(log)")
            try expectEqual(timeline(log).summary.verdict, .degraded)
        }
    }

    /// iOS 6's exporter dumps the entries of the transaction it exports: an export event.
    @Test func stackChangesCountAsAnExport() throws {
        let log = "2012-11-20 18:03:10.171 Journal[233:1a07] CoreData: Ubiquity:  Stack Changes: {\n    transactionEntry = \"(x-coredata://8F3A1C2B-6D4E-4F50-9B7A-1C2D3E4F5A6B/PFUbiquityTransactionEntry/p5)\";\n}"
        let event = try require(classify(log).first).classification.event
        expectEqual(event.category, .export)
        expectEqual(event.kind, .exportConsidered)
    }

    /// The rubric itself, over every kind: each warning and error says in its guidance
    /// what to do, and no routine (`-vv`) kind is above info.
    @Test func everyKindFitsTheRubricsShape() throws {
        for kind in try Catalog.standard().kinds {
            if kind.severity >= .warning { expect(kind.guidance.action != nil, "\(kind.id)") }
            if kind.tier == .routine { expect(kind.severity <= .info, "\(kind.id)") }
        }
    }
}
