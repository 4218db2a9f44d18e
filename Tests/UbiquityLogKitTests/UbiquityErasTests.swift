// Ubiquity told right across eras (issue #43): OS X 10.7 and iOS 5 and 6 import failures and
// their 134060 follow-ups, iOS 5 wordings, the fact on a continuation line shown at the
// default verbosity, hints from the reason inside a catch-all error, Core Data's own files in
// the container, stores of system frameworks in the app's process, and loggers' prefixes.
import Foundation
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct ImportFailureByExceptionTests {
    static let macPath = "/Users/ana/Library/Mobile Documents/9XK2M4Q7PL~net~example~ledger/Ledger/ana~5B0C7E21-4D3A-4A8F-9E12-77C0A1B2C3D4/LedgerStore/1F2E3D4C-5B6A-4978-8695-A4B3C2D1E0F9.3.cdt"
    static let phonePath = "/private/var/mobile/Library/Mobile Documents/QW12ER34TY~org~example~diary/Logs/mobile.7CC5373053DA4B1F9E0A1B2C3D4E5F60/DiaryStore/8A7B6C5D-4E3F-4A1B-9C8D-7E6F5A4B3C2D.12.cdt"

    /// The operation's report in the envelopes of its era: OS X 10.7's Xcode console (no
    /// method), iOS 6 with its method, an iOS 6 device console, and a paste without a header.
    static func exceptionRecords(path: String, transaction: Int, exception: String) -> [String] {
        let body = "Error importing transaction log: <PFUbiquityTransactionLog: 0x10054c1a0>\n\ttransactionLogLocation: <PFUbiquityLocation: 0x10054b8f0>: \(path)\n\ttransactionNumber: \(transaction)\n, exception: \(exception)\nUser Info: (null)"
        return [
            "2012-02-14 21:03:11.482 Ledger[3312:6e03] CoreData: Ubiquity:  " + body,
            "2012-11-20 18:02:44.105 Diary[233:4a07] -[_PFUbiquityRecordImportOperation main](313): CoreData: Ubiquity:  " + body,
            "Nov 20 18:02:44 Bens-iPad Diary[233] <Warning>: -[_PFUbiquityRecordImportOperation main](327): CoreData: Ubiquity: " + body,
            "CoreData: Ubiquity:  " + body,
        ]
    }

    @Test(arguments: exceptionRecords(path: macPath, transaction: 3, exception: "*** -[__NSArrayM insertObject:atIndex:]: object cannot be nil")
        + exceptionRecords(path: phonePath, transaction: 12, exception: "-[__NSCFString objectForKey:]: unrecognized selector sent to instance 0x1e5a1230"))
    func anImportStoppedByAnExceptionNamesItsLogAndTheException(_ log: String) throws {
        let classification = try require(classify(log).first).classification
        expectEqual(classification.event.kind, .importFailed)
        let fields = classification.event.fields
        let name = log.contains("1F2E3D4C") ? "1F2E3D4C-5B6A-4978-8695-A4B3C2D1E0F9.3.cdt" : "8A7B6C5D-4E3F-4A1B-9C8D-7E6F5A4B3C2D.12.cdt"
        expect(fields.contains(Field("log", .string(name))))
        expect(fields.contains(Field("location", .string(log.contains("1F2E3D4C") ? Self.macPath : Self.phonePath))))
        expect(fields.contains(Field("transaction", .int(log.contains(".3.cdt") ? 3 : 12))))
        let exception = log.contains("insertObject") ? "*** -[__NSArrayM insertObject:atIndex:]: object cannot be nil"
            : "-[__NSCFString objectForKey:]: unrecognized selector sent to instance 0x1e5a1230"
        expect(fields.contains(Field("exception", .string(exception))))
        let (text, summary) = try timeline(log)
        expect(text.contains("ERROR Import failed for log \(name) (transaction \(log.contains(".3.cdt") ? 3 : 12)): exception: \(exception)"), "\(text)")
        expectEqual(summary.ubiquity.importFailureCount, 1)
        expectEqual(summary.verdict, .broken)
        expectEqual(summary.ubiquity.transactionLogs.first?.imports.first?.outcome, .failed)
    }

    static let followUp = "Import operation encountered an error: Error Domain=NSCocoaErrorDomain Code=134060 \"The operation couldn’t be completed. (Cocoa error 134060.)\" UserInfo=0x100552e40 {reason=*** -[__NSArrayM insertObject:atIndex:]: object cannot be nil}\nuserInfo: {\n    reason = \"*** -[__NSArrayM insertObject:atIndex:]: object cannot be nil\";\n}. While trying to import the log file at the URL: (null)"

    /// The importer's 134060 report that follows on the same thread names the log the
    /// exception stopped: one failed import, counted once, and no failure without its log.
    @Test(arguments: [
        ("2012-02-14 21:03:11.482 Ledger[3312:6e03] CoreData: Ubiquity:  ", "2012-02-14 21:03:11.490 Ledger[3312:6e03] CoreData: Ubiquity:  "),
        ("2012-11-20 18:02:44.105 Ledger[233:4a07] -[_PFUbiquityRecordImportOperation main](313): CoreData: Ubiquity:  ",
         "2012-11-20 18:02:44.109 Ledger[233:4a07] -[_PFUbiquityRecordsImporter operation:failedWithError:](1055): CoreData: Ubiquity:  "),
    ])
    func theFollowingReportIsLinkedToTheLog(_ first: String, _ second: String) throws {
        let stopped = Self.exceptionRecords(path: Self.macPath, transaction: 3, exception: "*** -[__NSArrayM insertObject:atIndex:]: object cannot be nil")[3]
            .replacingOccurrences(of: "CoreData: Ubiquity:  ", with: first)
        let app = "2012-11-20 18:02:44.107 Ledger[233:1303] Saved the entry list."
        let log = stopped + "\n" + app + "\n" + second + Self.followUp
        let (text, summary) = try timeline(log)
        expect(!text.contains("Import failed for log ?"), "\(text)")
        expect(text.contains("ERROR Import failed for log 1F2E3D4C-5B6A-4978-8695-A4B3C2D1E0F9.3.cdt: NSCocoaErrorDomain 134060: *** -[__NSArrayM insertObject:atIndex:]: object cannot be nil"), "\(text)")
        expectEqual(summary.ubiquity.importFailureCount, 1)
        expectEqual(summary.ubiquity.transactionLogs.count, 1)
        expectEqual(summary.ubiquity.transactionLogs.first?.imports.count, 1)
    }

    /// A report on another thread, or with no exception before it, is not linked: the tool
    /// does not guess which log it was.
    @Test func aReportOfAnotherThreadIsNotLinked() throws {
        let stopped = "2012-02-14 21:03:11.482 Ledger[3312:6e03] CoreData: Ubiquity:  Error importing transaction log: <PFUbiquityTransactionLog: 0x10054c1a0>\n\ttransactionLogLocation: <PFUbiquityLocation: 0x10054b8f0>: \(Self.macPath)\n, exception: boom"
        let other = "2012-02-14 21:03:11.490 Ledger[3312:7a11] CoreData: Ubiquity:  " + Self.followUp
        let (text, summary) = try timeline(stopped + "\n" + other)
        expect(text.contains("Import failed for log ?: NSCocoaErrorDomain 134060"))
        expectEqual(summary.ubiquity.importFailureCount, 2)
        let (alone, _) = try timeline(other)
        expect(alone.contains("Import failed for log ?"))
    }
}

@Suite struct IOS5WordingTests {
    /// iOS 5 names its logs `N.plist`; an empty one is a warning that names it and its peer.
    @Test(arguments: [
        "2011-07-26 07:08:26.940 Diary[818:707] CoreData: Ubiquity: Error, encountered empty log file at URL: file://localhost/private/var/mobile/Library/Mobile%20Documents/QW12ER34TY~org~example~diary/Diary/mobile.00000000-0000-1000-8000-5A4B3C2D1E0F/org.example.diary/4.plist",
        "Jul 26 07:08:26 Anns-iPhone Diary[818] <Warning>: CoreData: Ubiquity: Error, encountered empty log file at URL: file://localhost/private/var/mobile/Library/Mobile%20Documents/QW12ER34TY~org~example~diary/Diary/mobile.00000000-0000-1000-8000-5A4B3C2D1E0F/DiaryStore/4.plist ",
        "CoreData: Ubiquity:  Error, encountered empty log file at URL: /var/mobile/Library/Mobile Documents/QW12ER34TY~org~example~diary/Diary/mobile.00000000-0000-1000-8000-5A4B3C2D1E0F/DiaryStore/4.plist",
    ])
    func anEmptyLogFileIsAWarningNamingIt(_ log: String) throws {
        let event = try require(classify(log).first).classification.event
        expectEqual(event.kind, .importProblem)
        expect(event.fields.contains(Field("log", .string("4.plist"))))
        expect(event.fields.contains(Field("peer", .string("mobile.00000000-0000-1000-8000-5A4B3C2D1E0F"))))
        let (text, summary) = try timeline(log)
        expect(text.contains("WARN  Transaction log 4.plist from peer mobile.00000000-0000-1000-8000-5A4B3C2D1E0F is empty"), "\(text)")
        expectEqual(summary.verdict, .degraded)
    }

    /// iOS 5's check for a baseline in the cloud could not read it: a warning with its error.
    @Test(arguments: ["2011-07-27 07:10:41.567 Diary[622:707] -[PFUbiquityBaseline existsInCloud](83): CoreData: Ubiquity:  ",
                      "2011-07-27 07:10:41.567 Diary[622:707] CoreData: Ubiquity:  ",
                      "Jul 27 07:10:41 Anns-iPhone Diary[622] <Warning>: -[PFUbiquityBaseline existsInCloud](91): CoreData: Ubiquity: "])
    func anUnreadableBaselineIsAWarningWithItsError(_ header: String) throws {
        let log = header + "Error attempting to read baseline: <PFUbiquityBaseline: 0x3da400>\nubiquityRootURL: file://localhost/private/var/mobile/Library/Mobile%20Documents/QW12ER34TY~org~example~diary/Diary\nstoreName: DiaryStore\nbaselineFileURL: file://localhost/private/var/mobile/Library/Mobile%20Documents/QW12ER34TY~org~example~diary/Diary/.baseline/DiaryStore/baseline.zip\n.\nError: Error Domain=NSCocoaErrorDomain Code=256 \"The operation couldn’t be completed. (Cocoa error 256 - The item failed to download.)\" UserInfo=0x3dbd00 {NSDescription=The item failed to download.}"
        let event = try require(classify(log).first).classification.event
        expectEqual(event.kind, .baselineProblem)
        expectEqual(event.error?.code, 256)
        let (text, _) = try timeline(log)
        expect(text.contains("NSCocoaErrorDomain 256: The item failed to download."), "\(text)")
    }
}

@Suite struct ContinuationFactTests {
    /// 134060 is a catch-all: its hint comes from the reason inside it, and without a reason
    /// that says more it makes no guess.
    @Test(arguments: [
        ("import operation's context lost its stack", "The store was removed from its coordinator while a transaction log was imported"),
        ("Importer aborted scanning for logs because it failed to acquire a file coordinator.", "The importer could not coordinate access"),
        ("Unable to get a model version hash from this coordinator's managed object model: Journal", "The managed object model gives no version hash"),
        ("*** -[__NSArrayM objectAtIndex:]: index 4 beyond bounds [0 .. 3]", "Core Data threw an exception while importing"),
        ("Something nobody has seen before", "Read the reason inside the error (NSLocalizedFailureReason, or `reason` in older logs): it is the only account of what failed."),
    ])
    func theCatchAllsHintComesFromItsReason(_ reason: String, _ hint: String) throws {
        let log = "2014-03-02 09:14:07.318 Journal[412:60b] -[_PFUbiquityRecordsImporter operation:failedWithError:](1511): CoreData: Ubiquity:  Import operation encountered an error: Error Domain=NSCocoaErrorDomain Code=134060 \"(null)\" UserInfo={reason=\(reason)}\nuserInfo: {}. While trying to import the log file at the URL: file:///var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/CoreDataLogs/mobile~A3D19B52-7E0C-4F8A-B1D6-5C2E9F04A7B3/JournalStore/6F0D/DAC8E3F1-2B4A.3.cdt"
        let (text, _) = try timeline(log)
        expect(text.contains("hint: \(hint)"), "\(text)")
        expect(!text.contains("often"))
    }

    /// iOS 6 wraps the exception that stopped an import in error 134060's user info: the
    /// exception is the error's reason, shown, and its hint is the exception's.
    @Test func anExceptionWrappedInTheErrorIsItsReason() throws {
        let log = "2012-11-20 18:02:44.109 Journal[233:4a07] -[_PFUbiquityRecordsImporter operation:failedWithError:](1055): CoreData: Ubiquity:  Import operation encountered an error: Error Domain=NSCocoaErrorDomain Code=134060 \"The operation couldn’t be completed. (Cocoa error 134060.)\" UserInfo=0x1e5f2a30 {NSUnderlyingException=*** -[__NSArrayM objectAtIndex:]: index 4 beyond bounds [0 .. 3]}\nuserInfo: {\n    NSUnderlyingException = \"*** -[__NSArrayM objectAtIndex:]: index 4 beyond bounds [0 .. 3]\";\n}. While trying to import the log file at the URL: (null)"
        let (text, _) = try timeline(log)
        expect(text.contains("NSCocoaErrorDomain 134060: *** -[__NSArrayM objectAtIndex:]: index 4 beyond bounds [0 .. 3]"), "\(text)")
        expect(text.contains("hint: Core Data threw an exception while importing"), "\(text)")
    }

    /// A warning whose log is named only on a continuation line shows it.
    @Test func aLogOnAContinuationLineIsShown() throws {
        let log = "2014-03-02 09:14:07.318 Journal[412:60b] -[_PFUbiquityRecordImportOperation main](260): CoreData: Ubiquity:  Transaction log was ignored because it could not be opened\n\ttransactionLogLocation: <PFUbiquityLocation: 0x15e53120>: /var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/CoreDataLogs/mobile~A3D19B52-7E0C-4F8A-B1D6-5C2E9F04A7B3/JournalStore/6F0D/DAC8E3F1-2B4A-4C6D-8E9F-0A1B2C3D4E5F.5.cdt"
        let (text, _) = try timeline(log)
        expect(text.contains("WARN  Transaction log was ignored because it could not be opened (log DAC8E3F1-2B4A-4C6D-8E9F-0A1B2C3D4E5F.5.cdt)"), "\(text)")
    }

    /// `[...]` does not hide an error: an unrecognised record's error on a later line is shown.
    @Test func anUnhandledRecordShowsTheErrorItsHiddenLinesHold() throws {
        let log = "2014-03-02 09:14:07.318 Journal[412:60b] -[PFUbiquityContainerMonitor deferPendingChecks:](77): CoreData: Ubiquity:  Deferring 2 pending container checks\nError Domain=NSCocoaErrorDomain Code=134302 \"(null)\" UserInfo={reason=Could not read the transaction log}"
        let (text, _) = try timeline(log)
        expect(text.contains("[unhandled] -[PFUbiquityContainerMonitor deferPendingChecks:]: Deferring 2 pending container checks [...] NSCocoaErrorDomain 134302: Could not read the transaction log"), "\(text)")
    }
}

@Suite struct LastReferenceRowsTests {
    static let root = "/var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/CoreDataLogs"

    /// Messages that start with an object's description and a line break, the importer's
    /// updated-object messages and UbiquityStoreManager's, with values their code passes
    /// (words, paths, peer ids, nil), each in an Xcode, a device console and a pasted envelope.
    static let rows: [(method: String, message: String, kind: EventKind)] = [
        ("-[PFUbiquityBaseline haveTransactionLogsForPeer:between:and:](727)",
         "<PFUbiquityBaseline: 0x15eb5e60>\n\tpermanentLocation: <PFUbiquityLocation: 0x15eb6f70>: \(root)/.baseline/JournalStore/baseline.zip\nNeed logs for peer mac~11D2AB34-5566-4788-99AA-BBCCDDEEFF00 between 4 and 17 to adopt", .baselineCheck),
        ("-[PFUbiquityFilePresenter processPendingURLs](485)",
         "<PFUbiquityFilePresenter: 0x15d58e20>\n\tpresentedItemURL: file://\(root)/\nStatus: {\n    \"file://\(root)/mac~11D2AB34-5566-4788-99AA-BBCCDDEEFF00/JournalStore/6F0D/4B3A.2.cdt\" = 1;\n}", .fileStatus),
        ("-[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:](906)",
         "mobile.6F2C0E8A1B7D4C559A342B8E1D0C7F11:Journal Store (iPad)\nUsing local storage: 1 for new NSFileManager current token <7bd2a1c4 0e9f3b57 11aa22bb>", .usingLocalStorage),
        ("-[_PFUbiquityRecordImportOperation processObjects:withState:andImportContext:outError:](889)",
         "Transaction log: <PFUbiquityTransactionLog: 0x15e9e2f0>\n\ttransactionLogLocation: <PFUbiquityLocation: 0x15e53120>: \(root)/mac~11D2AB34-5566-4788-99AA-BBCCDDEEFF00/JournalStore/6F0D/4B3A9C8D-1E2F-4A5B-8C7D-6E5F4A3B2C1D.2.cdt\n\ttransactionNumber: 2\n appears an updated object: 0x15f1c3d0 <x-coredata://8F3A1C2B-6D4E-4F50-9B7A-1C2D3E4F5A6B/Entry/p31> was deleted.", .importProblem),
        ("+[PFUbiquityRecordImportConflict resolvedTypeForConflictingLogType:andLatestTransactionEntry:skipObject:](514)",
         "Skipping updated object with globalID: JournalStore:Entry:p31:mobile.6F2C0E8A1B7D4C559A342B8E1D0C7F11 because it was later deleted by the transaction log", .importConflict),
        ("", "UbiquityStoreManager: StoreUUID changed (null) -> 9B8C7D6E-5F40-4132-A3B4-C5D6E7F8A9B0", .storeUUIDChanged),
        ("", "UbiquityStoreManager: Error (cause:UbiquityStoreErrorCauseSeedStore): (null)", .storeManagerError),
        ("", "UbiquityStoreManager: Error (cause:UbiquityStoreErrorCauseCreateStorePath): Error Domain=NSCocoaErrorDomain Code=513 \"You don’t have permission.\" UserInfo={NSFilePath=\(root)/x, NSUnderlyingError=0x15ea1b20 {Error Domain=NSPOSIXErrorDomain Code=13 \"Permission denied\"}}", .storeManagerError),
        ("", "UbiquityStoreManager: Reloading store...", .storesLoading),
    ]

    @Test(arguments: 0..<rows.count)
    func everyRowIsItsKindInEveryEnvelope(_ index: Int) throws {
        let row = Self.rows[index]
        let marker = row.message.hasPrefix("UbiquityStoreManager: ") ? "" : "CoreData: Ubiquity:  "
        let method = row.method.isEmpty ? "" : row.method + ": "
        let envelopes = [
            "2014-03-02 09:14:07.318 Journal[412:60b] \(method)\(marker)\(row.message)",
            "Mar  2 09:14:07 Joes-iPad Journal[412] <Warning>: \(method)\(marker)\(row.message)",
            "\(method.isEmpty ? "" : String(method.dropFirst()))\(marker)\(row.message)",
        ]
        for log in envelopes {
            let event = try require(classify(log).first).classification.event
            expectEqual(event.kind, row.kind, "\(log)")
        }
    }

    /// The updated-object message names its log and what happened, not the log's object.
    @Test func theUpdatedObjectMessageSaysWhatHappened() throws {
        let row = Self.rows[3]
        let (text, _) = try timeline("Mar  2 09:14:07 Joes-iPad Journal[412] <Warning>: \(row.method): CoreData: Ubiquity: \(row.message)")
        expect(text.contains("WARN  Transaction log 4B3A9C8D-1E2F-4A5B-8C7D-6E5F4A3B2C1D.2.cdt: appears an updated object: 0x15f1c3d0"), "\(text)")
    }
}
