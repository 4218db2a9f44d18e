import Foundation
import Testing
import TestSupport
@testable import UbiquityLogKit

/// A family's marker marks a record wherever the line puts it: after blanks or a tab, a method
/// pasted without its `-`, a logger's tags and thread id, or no header at all. And the store
/// manager's messages handed to an app's logger through its delegate are store events, while
/// the app's own lines stay app lines.
@Suite struct MarkerAnywhereTests {
    static let failure = """
        CoreData: Ubiquity:  Import operation encountered had trouble importing log file, Error Domain=NSCocoaErrorDomain Code=134302 "The operation couldn’t be completed. (Cocoa error 134302.)" UserInfo=0x15e9a2c0 {reason=Could not read the transaction log}
         User Info: {
            reason = "Could not read the transaction log";
        }
         The log file is at: /var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/CoreDataLogs/mobile~A3D19B52-7E0C-4F8A-B1D6-5C2E9F04A7B3/JournalStore/6F0D0A1E-8C55-4F4C-9C3A-1D2E3F4A5B6C/DAC8E3F1-2B4A-4C6D-8E9F-0A1B2C3D4E5F.1.cdt.
        Operation: <_PFUbiquityRecordImportOperation: 0x15e9c0d0>
        """
    static let method = "_PFUbiquityRecordsImporter operation:failedWithError:"

    /// What precedes the marker of an import failure, as logs and pastes print it.
    static let prefixes: [String] = [
        "2014-03-02 09:14:07.318 Journal[412:60b]    -[\(method)](1489): ",
        "2014-03-02 09:14:07.318 Journal[412:60b]\t-[\(method)](1489): ",
        "2014-03-02 09:14:07.318 Journal[412:60b] [\(method)]_block_invoke(1489): ",
        "[\(method)]_block_invoke(1502): ",
        "\t-[\(method)](1489): ",
        "__52-[\(method)]_block_invoke_2(1502): ",
        "2014/03/02 09:14:07:318  [60b] -[\(method)]:1489 ",
        "2014/03/02 09:14:07:318 <0x1c2b> [\(method)]:1489 ",
        "[Journal] <Error> ",
        "Journal: ",
        "09:14:07.318 Journal[412:60b] -[\(method)](1489): ",
        "Mar  2 09:14:07 Joes-iPad Journal[412] <Error>:   -[\(method)](1541): ",
        "2016-09-30 10:01:02.123456+0200 0x2f1c     Error       0x0     412  0  Journal: (CoreData) [\(method)](1601): ",
        "2016-09-30 10:01:02.123456+0200  localhost Journal[412]: (CoreData) \t",
    ]

    @Test(arguments: prefixes)
    func anImportFailureIsFoundWhateverPrecedesItsMarker(prefix: String) throws {
        // An app line before it, to show the failure is a record of its own.
        let text = "2014-03-02 09:14:06.001 Journal[412:60b] Opening the journal\n" + prefix + Self.failure
        let classified = try classify(text)
        try require(classified.count == 2, "\(classified.map(\.record.textString))")
        let (record, classification) = classified[1]
        expectEqual(record.marker, .ubiquity)
        expectEqual(record.lineCount, 6, "the continuation lines belong to the record")
        expectEqual(classification.event.kind, .importFailed, "\(record.textString)")
        expectEqual(classification.event.severity, .error)
        expect(record.firstBodyText.hasPrefix("Import operation encountered"))
        if prefix.contains("[_PF") {
            expectEqual(record.header?.method?.contains("[_PFUbiquityRecordsImporter operation:failedWithError:]"), true)
        }
        let summary = try summarize([("paste.log", text)])
        expectEqual(summary.verdict, .broken)
        expectEqual(summary.ubiquity.importFailureCount, 1)
    }

    /// Store manager messages through a logger's header styles, with the prefix, re-prefixed, or
    /// handed to the app's `ubiquityStoreManager:log:` delegate without it.
    static let storeManagerLines: [(line: String, kind: String)] = [
        ("2014/03/02 09:14:07:318  [60b] [AppDelegate ubiquityStoreManager:log:]:123 Failed to load cloud store. Marking cloud store as corrupt. Store will be unavailable.", "cloud-store-marked-corrupt"),
        ("2014/03/02 09:14:07:318 [main] -[JRAppDelegate ubiquityStoreManager:log:]:88 Will load cloud store.", "store-load-started"),
        ("2014-03-02 09:14:07.318 Journal[412:60b] -[AppDelegate ubiquityStoreManager:log:](201): Cloud content corruption detected (device store is healthy).", "cloud-corruption-detected"),
        ("2014-03-02 09:14:07.318 Journal[412:60b]   [AppDelegate ubiquityStoreManager:log:]:201 Successfully loaded cloud store.", "store-load-succeeded"),
        ("Mar  2 09:14:07 Joes-iPad Journal[412] <Warning>: [USM] Cannot load cloud store: User is not logged into iCloud.  Falling back to local store.", "cloud-store-unavailable"),
        ("2014/03/02 09:14:07:318  [60b] StoreManager: Will load local store.", "store-load-started"),
        ("2014/03/02 09:14:07:318  Will load local store.", "store-load-started"),
        ("[Journal] UbiquityStoreManager: Successfully loaded local store.", "store-load-succeeded"),
        ("2014-03-02 09:14:07.318 Journal[412:60b] <Sync> UbiquityStoreManager: Detected iCloud transaction log import failure.", "import-failure-detected"),
    ]

    @Test(arguments: storeManagerLines)
    func storeManagerMessagesAreFoundThroughLoggers(line: String, kind: String) throws {
        let classified = try classify(line)
        try require(classified.count == 1)
        expectEqual(classified[0].classification.event.kind.id, kind, "\(line)")
    }

    /// A delegate record whose message no rule knows is the store manager's all the same.
    @Test func anUnknownMessageThroughTheDelegateIsUnhandledNotApp() throws {
        let classified = try classify("2014/03/02 09:14:07:318  [60b] [AppDelegate ubiquityStoreManager:log:]:123 Some message a later version added.")
        expectEqual(classified[0].record.marker, .storeManager)
        expectEqual(classified[0].classification.event.kind, .unhandled)
    }

    /// The app's own lines, through the same loggers and headers, stay app lines.
    @Test(arguments: [
        "2014/03/02 09:14:07:318  [60b] [AppDelegate application:didFinishLaunchingWithOptions:]:42 Loading the cloud settings",
        "2014/03/02 09:14:07:318  [60b] [JournalViewController viewDidLoad]:77 Will load cloud store when the user agrees.",
        "2014-03-02 09:14:07.318 Journal[412:60b] [Sync] Store loaded with 12 entries",
        "2014-03-02 09:14:07.318 Journal[412:60b] -[JournalViewController viewDidLoad](77): Successfully loaded 12 entries.",
        "Mar  2 09:14:07 Joes-iPad Journal[412] <Notice>: Cloud switched on in settings",
        "2014/03/02 09:14:07:318 [60b] Failed to load the avatar image.",
    ])
    func appLinesStayAppLines(line: String) throws {
        let classified = try classify(line)
        try require(classified.count == 1)
        expectEqual(classified[0].classification.event.kind, .app, "\(line)")
    }

    /// Continuation lines that mention no marker near their start still continue their record.
    @Test func continuationLinesStayContinuations() throws {
        let text = """
            2014-03-02 09:14:07.318 Journal[412:60b] -[PFUbiquitySetupAssistant finishSetupWithRetry:](826): CoreData: Ubiquity:  <PFUbiquitySetupAssistant: 0x15d5a2c0>
            \tlocalPeerID: mobile~6F2C0E8A-1B7D-4C55-9A34-2B8E1D0C7F11
            \tstoreName: JournalStore
            [Entry: 0x15f1a2b0] (entity: Entry; id: 0x15f1c3d0 <x-coredata://8F3A/Entry/p31> ; data: <fault>)
                NSFilePath = "/var/mobile/Library/Mobile Documents/x";
            Operation failed: the log is at: a place
            """
        try expectEqual(assemble(text).count, 1)
    }

    /// The marker's place in the line, the method before or after it and the message's start.
    @Test func theLooseReadingOfALine() throws {
        func parse(_ line: String) -> (Header, String)? {
            let bytes = Array(line.utf8)
            return bytes.withUnsafeBytes { buffer in
                HeaderParser().parse(buffer).map { ($0.header, String(decoding: bytes[$0.bodyStart...], as: UTF8.self)) }
            }
        }
        let pasted = try require(parse("[PFUbiquityFilePresenter processPendingURLs]_block_invoke(439): CoreData: Ubiquity:  x"))
        expectEqual(pasted.0.style, .bare)
        expectEqual(pasted.0.method, "[PFUbiquityFilePresenter processPendingURLs]_block_invoke")
        expectEqual(pasted.0.sourceLine, 439)
        expectEqual(pasted.1, "x")
        let lumberjack = try require(parse("2014/03/02 09:14:07:318  [60b] [AppDelegate ubiquityStoreManager:log:]:123 Will load cloud store."))
        expectEqual(lumberjack.0.style, .loggerTimestamp)
        expectEqual(lumberjack.0.thread, "60b")
        expectEqual(lumberjack.0.method, "[AppDelegate ubiquityStoreManager:log:]")
        expectEqual(lumberjack.0.sourceLine, 123)
        expectEqual(lumberjack.0.marker, .storeManager)
        expectEqual(lumberjack.1, "Will load cloud store.")
        // A family that prints its method after its marker.
        let after = try require(parse("2014-03-02 09:14:07.318 Journal[412:60b] CoreData: debug: CoreData: Ubiquity: -[A b:](12): y"))
        expectEqual(after.0.marker, .ubiquity)
        expectEqual(after.0.method, "-[A b:]")
        expectEqual(after.1, "y")
        // The marker twice, a tab between.
        try expectEqual(require(parse("Journal: CoreData: Ubiquity:\tCoreData: Ubiquity:  z")).1, "z")
        // A method's name: 1 to 400 bytes before its `]`, none of them a bracket.
        for (count, read) in [(398, true), (399, false)] {
            let named = try require(parse("2014/03/02 09:14:07:318  [60b] -[A " + String(repeating: "x", count: count) + "]:12 y"))
            expectEqual(named.0.method != nil, read, "\(count)")
        }
        try expectEqual(require(parse("2014/03/02 09:14:07:318  [60b] -[A [b]:12 y")).0.method, nil)
        // Far into a long line, no marker is looked for.
        expect(parse(String(repeating: "w", count: LooseMarkers.window) + " CoreData: Ubiquity: x") == nil)
    }

    /// A family's marker is found by its declared spelling alone: one more spelling, and lines
    /// carrying it anywhere near their start are records of that family.
    @Test func everyDeclaredSpellingIsFound() throws {
        for spelling in MarkerTable.standard.spellings {
            // A spelling that includes the message's first words keeps them in the message.
            let marked = String(decoding: spelling.bytes, as: UTF8.self) + (spelling.bytes.last == 0x20 ? "" : " ") + "message"
            let message = String(decoding: spelling.bytes[spelling.length...], as: UTF8.self) + "message"
            for line in ["[Tag] \(marked)", "2014/03/02 09:14:07:318  [60b] \(marked)", "   \(marked)"] {
                let bytes = Array(line.utf8)
                let parsed = bytes.withUnsafeBytes { HeaderParser().parse($0) }
                expectEqual(parsed?.header.marker, spelling.marker, "\(line)")
                let body = parsed.map { String(decoding: bytes[$0.bodyStart...], as: UTF8.self) }
                expectEqual(body, message, "\(line)")
            }
        }
    }

    /// The search looks at a colon's spellings only when two bytes before it fit a marker's first
    /// word (`LooseMarkers.quickPair`): every declared spelling must pass that test, wherever the
    /// window lets it be, or its records would turn into app lines.
    @Test func theQuickTestLetsEveryDeclaredSpellingThrough() throws {
        let back = LooseMarkers.quickLookBack
        for spelling in MarkerTable.standard.spellings {
            let text = Array(spelling.bytes)
            let colon = spelling.firstColon
            try require(colon >= back && text[colon] == UInt8(ascii: ":"), "\(spelling.text)")
            expect(LooseMarkers.quickPair(text[colon - back], text[colon - 1]), "\(spelling.text)")
            // From the line's start (or a header's end) to the furthest place the window takes:
            // the marker's first colon on the window's last byte; one byte further, no marker.
            for from in [0, 7] {
                for offset in [0, 1, 15, 16, 17, LooseMarkers.window - colon - 2, LooseMarkers.window - colon - 1, LooseMarkers.window - colon] {
                    for tail in ["", " message"] {
                        let line = Array(repeating: UInt8(ascii: "w"), count: from + offset) + text + Array(tail.utf8)
                        let found = line.withUnsafeBytes { LooseMarkers.firstMarker(in: $0, from: from, .standard) }
                        if from + offset + colon < from + LooseMarkers.window {
                            expectEqual(found?.start, from + offset, "\(spelling.text) at \(offset) from \(from)")
                            expectEqual(found?.spelling.marker, spelling.marker, "\(spelling.text) at \(offset) from \(from)")
                        } else {
                            expect(found == nil, "\(spelling.text) at \(offset) from \(from)")
                        }
                    }
                }
            }
        }
    }

    /// The colons are found, and their two bytes checked, sixteen bytes at a time in C
    /// (`LooseMarkers.markerColon`): it takes the pairs `quickPair` takes, every one of them.
    @Test func theScanChecksThePairsTheQuickTestTakes() {
        for first in UInt8.min...UInt8.max {
            for last in UInt8.min...UInt8.max {
                let line = [first] + Array(repeating: UInt8(ascii: "w"), count: 6) + [last, UInt8(ascii: ":")]
                let found = line.withUnsafeBytes { LooseMarkers.markerColon($0.baseAddress!, from: 8, to: 9) }
                if found != (LooseMarkers.quickPair(first, last) ? 8 : 9) {
                    Issue.record("\(first) \(last): \(found)")
                }
            }
        }
    }

    /// And it finds the first such colon wherever it stands in the window: in a whole block,
    /// in the last bytes read again, in a window shorter than a block.
    @Test func theScanFindsTheFirstPassingColonAnywhere() {
        let alphabet = Array("Caterw::".utf8)
        var generator = SeededGenerator(state: 11)
        for _ in 0..<4000 {
            let count = Int.random(in: 8...90, using: &generator)
            let line = (0..<count).map { _ in alphabet.randomElement(using: &generator)! }
            let start = Int.random(in: 8...count, using: &generator)
            let limit = Int.random(in: start...count, using: &generator)
            let expected = (start..<limit).first {
                line[$0] == UInt8(ascii: ":") && LooseMarkers.quickPair(line[$0 - 8], line[$0 - 1])
            } ?? limit
            let found = line.withUnsafeBytes { LooseMarkers.markerColon($0.baseAddress!, from: start, to: limit) }
            expectEqual(found, expected, "\(String(decoding: line, as: UTF8.self)) \(start)..<\(limit)")
        }
    }
}
