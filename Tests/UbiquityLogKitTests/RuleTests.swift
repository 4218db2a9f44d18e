import Testing
import TestSupport
@testable import UbiquityLogKit
import PatternLeads

/// Every rule's sample records: each is one record, recognised by that rule, as its kind.
@Suite struct RuleSampleTests {
    static let ruleIDs = Catalog.standardRules.map(\.id)

    @Test func theCatalogueCompiles() throws {
        let catalog = try Catalog.standard()
        expectEqual(catalog.rules.count, Catalog.standardRules.count)
        expectEqual(Set(catalog.kinds.map(\.id)).count, catalog.kinds.count)
    }

    @Test(arguments: ruleIDs)
    func samplesAreRecognisedByTheirRule(ruleID: String) throws {
        let rule = try require(Catalog.standardRules.first { $0.id == ruleID })
        expect(!rule.samples.isEmpty, "every rule carries samples")
        for sample in rule.samples {
            let results = try classify(sample)
            try require(results.count == 1, "sample is one record: \(sample)")
            let classification = results[0].classification
            expectEqual(classification.rule?.id, rule.id, "\(sample)")
            expect(rule.kinds.contains(classification.event.kind), "\(classification.event.kind) for \(sample)")
        }
    }

    @Test(arguments: ruleIDs)
    func samplesAreRecognisedInAnotherHeaderStyle(ruleID: String) throws {
        // The same message on a device console (syslog header) instead of Xcode's.
        let rule = try require(Catalog.standardRules.first { $0.id == ruleID })
        for sample in rule.samples where sample.hasPrefix("2014-03-02 09:14:07.318 Journal[412:60b] ") {
            let console = "Mar  2 09:14:07 Joes-iPad Journal[412] <Notice>: " + sample.dropFirst(41)
            let results = try classify(console)
            expectEqual(results.count, 1)
            expectEqual(results.first?.classification.rule?.id, rule.id, "\(console)")
        }
    }

    @Test func kindIDsAreKebabCase() {
        for kind in try! Catalog.standard().kinds {
            expect(kind.id.allSatisfy { $0.isLowercase || $0 == "-" }, "\(kind.id)")
            expect(!kind.summary.isEmpty)
        }
    }
}

/// The facts rules extract.
@Suite struct RuleFactTests {
    private func event(_ text: String) throws -> Event {
        let results = try classify(text)
        try require(results.count == 1)
        return results[0].classification.event
    }

    @Test func fileNamesAndKnowledgeVectors() {
        expectEqual(Extract.fileName(" /var/mobile/Library/Mobile Documents/x/4D3F~A1.1.cdt "), "4D3F~A1.1.cdt")
        expectEqual(Extract.fileName("/a/b/Journal Store/"), "Journal Store")
        expectEqual(Extract.fileName("/a/ünïcødé/café.cdt"), "café.cdt")
        expectEqual(Extract.fileName("name.cdt"), "name.cdt")
        expect(Extract.fileName("///") == nil)
        expect(Extract.fileName("") == nil)
        expect(Extract.fileName(nil) == nil)
        expectEqual(Extract.knowledgeVector("<PFUbiquityKnowledgeVector: 0x1e5c>:{a:1, b:2}"), "{a:1, b:2}")
        expectEqual(Extract.knowledgeVector("<é: 0x1>: {ü:3} "), "{ü:3}")
        expectEqual(Extract.knowledgeVector(" {a:1} "), "{a:1}")
        expect(Extract.knowledgeVector("<> ") == nil)
    }

    @Test func referencesShortenedAsTheCharacterReadingDid() {
        // Random texts of the pieces that matter (URIs, object ids with and without quotes,
        // stray slashes and brackets, a multi-byte letter) read both ways.
        let pieces = ["<x-coredata://", "8F3A/", "Tag/", "p3", ">", "/", "\"", " ", "\"0x15e4f120 ", "0x1 ", "0x", "é", "(", ")", "\n", "a"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            let text = (0..<Int.random(in: 0...14, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            expectEqual(ObjectDump.shortenReferences(text), shortenReferencesByCharacters(text), "\(text.debugDescription)")
        }
        expectEqual(ObjectDump.shortenReferences(#"( "0x15e4f120 <x-coredata://8F3A/Tag/p3>" )"#), "( Tag/p3 )")
    }

    @Test func attributesReadAsTheCharacterReadingDid() {
        // Random texts of the pieces that matter (separators inside and outside quotes and
        // brackets, escapes, runs of spaces and tabs, a combining mark after a space, a letter
        // beyond ASCII) read both ways.
        let pieces = ["a", "b", " = ", "=", ";", " ", "  ", "\t", "\"", "\\", "(", ")", "{", "}", "é", " \u{301}", "\u{600} ", "<x-coredata://8F3A/Tag/p3>", "\"0x1 "]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            let text = (0..<Int.random(in: 0...16, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            expectEqual(ObjectDump.attributes(from: text), attributesByCharacters(text), "\(text.debugDescription)")
        }
    }

    /// The implementation the byte-level one replaced, which collapsed spaces Character by
    /// Character (`ObjectDump.collapseSpaces`, kept for values beyond ASCII): the reference
    /// it must agree with.
    private func attributesByCharacters(_ text: String) -> [ObjectChange.Attribute] {
        let compact = ObjectDump.shortenReferences(text)
        var attributes: [ObjectChange.Attribute] = []
        let bytes = compact.utf8
        var pieceStart = bytes.startIndex
        func finish(_ end: String.Index) {
            let piece = compact[pieceStart..<end].trimmingCharacters(in: " ")
            guard !piece.isEmpty else { return }
            if let equals = piece.firstRange(ofASCII: " = ") {
                attributes.append(.init(name: String(piece[..<equals.lowerBound]),
                                        value: ObjectDump.collapseSpaces(String(piece[equals.upperBound...])).trimmingCharacters(in: " ")))
            } else {
                attributes.append(.init(name: piece, value: ""))
            }
        }
        var depth = 0
        var quoted = false
        var escaped = false
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if escaped {
                escaped = false
            } else {
                switch byte {
                case UInt8(ascii: "\\") where quoted: escaped = true
                case UInt8(ascii: "\""): quoted.toggle()
                case UInt8(ascii: "(") where !quoted, UInt8(ascii: "{") where !quoted: depth += 1
                case UInt8(ascii: ")") where !quoted, UInt8(ascii: "}") where !quoted: depth = max(0, depth - 1)
                case UInt8(ascii: ";") where !quoted && depth == 0:
                    finish(index)
                    pieceStart = bytes.index(after: index)
                default: break
                }
            }
            index = bytes.index(after: index)
        }
        finish(bytes.endIndex)
        return attributes
    }

    /// The Character-based implementation the byte-level one replaced: the reference it must agree with.
    private func shortenReferencesByCharacters(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let start = rest.firstRange(ofASCII: "<x-coredata://") {
            guard let end = rest[start.upperBound...].firstIndex(of: ">") else { break }
            var before = rest[..<start.lowerBound]
            // Drop the `"0x15e4f120 ` that precedes the URI, and its closing quote after.
            var closingQuote = false
            if let space = before.lastIndex(of: " "), before[before.index(after: space)...].isEmpty {
                let token = before[..<space]
                if let quote = token.lastIndex(of: "\""), token[token.index(after: quote)...].hasPrefix("0x") {
                    before = token[..<quote]
                    closingQuote = true
                } else if let spaceBefore = token.lastIndex(of: " "), token[token.index(after: spaceBefore)...].hasPrefix("0x") {
                    before = token[...spaceBefore]
                }
            }
            let parts = rest[start.upperBound..<end].split(separator: "/")
            result += before
            result += parts.suffix(2).joined(separator: "/")
            rest = rest[rest.index(after: end)...]
            if closingQuote, rest.first == "\"" { rest = rest.dropFirst() }
        }
        result += rest
        return result
    }


    @Test func usingLocalStorage() throws {
        let sample = "2014-03-02 09:14:07.318 Journal[412:60b] -[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:](808): CoreData: Ubiquity:  mobile~6F2C0E8A:JournalStore\nUsing local storage: 0"
        try expectEqual(event(sample), .usingLocalStorage(false, peer: "mobile~6F2C0E8A", store: "JournalStore"))
        try expectEqual(event("CoreData: Ubiquity:  Using local storage: 1"), .usingLocalStorage(true, peer: nil, store: nil))
    }

    @Test func exportedObjectsWithAttributesAndRelationships() throws {
        let rule = try require(Catalog.standardRules.first { $0.id == "objects-exported" })
        let changes = try event(rule.samples[0]).objectChanges
        expectEqual(changes, [ObjectChange(operation: .inserted, entity: "Entry", objectID: "p12", attributes: [
            .init(name: "body", value: "\"Went for a walk.\""),
            .init(name: "tags", value: "( Tag/p3 )"),
            .init(name: "title", value: "Walk"),
        ])])
        expectEqual(changes[0].oneLine, "Entry/p12: body = \"Went for a walk.\"; tags = ( Tag/p3 ); title = Walk")
        let faults = try event(rule.samples[1]).objectChanges
        expectEqual(faults, [ObjectChange(operation: .deleted, entity: "Tag", objectID: "p9")])
    }

    @Test func importedChangesPerSection() throws {
        let rule = try require(Catalog.standardRules.first { $0.id == "changes-imported" })
        let changes = try event(rule.samples[0]).objectChanges
        expectEqual(changes.map(\.operation), [.inserted, .updated])
        expectEqual(changes.map(\.objectID), ["p31", "p12"])
        expectEqual(changes[0].attributes.map(\.name), ["body", "title"])
    }

    @Test func transactionLogWritten() throws {
        let rule = try require(Catalog.standardRules.first { $0.id == "transaction-log-written" })
        try expectEqual(event(rule.samples[0]), .transactionLogWritten(transaction: 12, log: "DAC8E3F1-2B4A-4C6D-8E9F-0A1B2C3D4E5F.1.cdt"))
    }

    @Test func storeWillCommitAndAlreadyImported() throws {
        let commit = try require(Catalog.standardRules.first { $0.id == "store-will-commit" })
        try expectEqual(event(commit.samples[0]), .storeWillCommit(transaction: 12))
        let skipped = try require(Catalog.standardRules.first { $0.id == "log-already-imported" })
        try expectEqual(event(skipped.samples[0]), .logAlreadyImported(log: "DAC8E3F1-2B4A-4C6D-8E9F-0A1B2C3D4E5F.1.cdt"))
    }

    @Test func relationshipAndScores() throws {
        let relationship = try require(Catalog.standardRules.first { $0.id == "relationship-resolved" })
        try expectEqual(event(relationship.samples[0]), .relationshipResolved(relationship: "tags", value: "( Tag/p3 )"))
        let ahead = try require(Catalog.standardRules.first { $0.id == "log-ahead-of-peer" })
        guard case .logAheadOfPeer(let logScore, let afterScore, let reason) = try event(ahead.samples[0]) else {
            Issue.record("wrong event"); return
        }
        expectEqual(logScore, "{mobile~A3D19B52-7E0C-4F8A-B1D6-5C2E9F04A7B3:9}")
        expectEqual(afterScore?.hasPrefix("{mobile~6F2C0E8A"), true)
        expectEqual(reason, "It is ahead of the local peer.")
        let incompatible = try require(Catalog.standardRules.first { $0.id == "incompatible-operation-skipped" })
        try expectEqual(event(incompatible.samples[0]), .incompatibleOperationSkipped(
            score: "{mobile~A3D19B52-7E0C-4F8A-B1D6-5C2E9F04A7B3:4}", log: "DAC8E3F1-2B4A-4C6D-8E9F-0A1B2C3D4E5F.1.cdt", transaction: 4))
    }

    @Test func errorsAreParsedIntoDomainCodeAndReason() throws {
        let failed = try require(Catalog.standardRules.first { $0.id == "import-failed" })
        try expectEqual(event(failed.samples[0]), .importFailed(
            log: "DAC8E3F1-2B4A-4C6D-8E9F-0A1B2C3D4E5F.1.cdt",
            error: ErrorInfo(domain: "NSCocoaErrorDomain", code: 134302,
                             description: "The operation couldn’t be completed. (Cocoa error 134302.)",
                             reason: "Could not read the transaction log")))
        try expectEqual(event(failed.samples[1]).error?.code, 260)
        let roll = try require(Catalog.standardRules.first { $0.id == "baseline-roll-response-failed" })
        try expectEqual(event(roll.samples[0]).error?.code, 134307)
    }

    @Test func aFailedImportsLogIsTheRestOfTheMarkersLine() {
        expectEqual(ImportRules.importedLogLocation(in: "x\n The log file is at: /a/é b.cdt.\nOperation: y"), "/a/é b.cdt")
        expectEqual(ImportRules.importedLogLocation(in: "While trying to import the log file at the URL: file:///a/b.cdt"), "file:///a/b.cdt")
        expectEqual(ImportRules.importedLogLocation(in: "Error loading comparison metadata for transaction log: /a/b.cdt..\n"), "/a/b.cdt.")
        expectEqual(ImportRules.importedLogLocation(in: "The log file is at: ."), "")
        expect(ImportRules.importedLogLocation(in: "The log file is at:\n/a/b.cdt") == nil)
    }

    @Test func storeAddFailedCarriesTheCoreDataError() throws {
        let rule = try require(Catalog.standardRules.first { $0.id == "store-add-failed" })
        guard case .storeAddFailed(let type, let url, let error) = try event(rule.samples[0]) else {
            Issue.record("wrong event"); return
        }
        expectEqual(type, "SQLite")
        expectEqual(url, "file:///var/mobile/Applications/4C1F/Documents/Journal.sqlite")
        expectEqual(error?.code, 134100)
        expectEqual(error?.reason, "The model used to open the store is incompatible with the one used to create the store")
    }

    @Test func storeManagerMessagesAlsoWhenReprefixed() throws {
        try expectEqual(event("2014-03-02 09:14:07.318 Journal[412:60b] UbiquityStoreManager: Will load cloud store."), .storeLoadStarted(.cloud, store: nil))
        try expectEqual(event("2014-03-02 09:14:07.318 Journal[412:60b] [USM] Successfully loaded local store."), .storeLoadSucceeded(.local))
        try expectEqual(event("2014-03-02 09:14:07.318 Journal[412:60b] StoreManager: Will load local store."), .storeLoadStarted(.local, store: nil))
        try expectEqual(event("2014-03-02 09:14:07.318 Journal[412:60b] Will load local store."), .storeLoadStarted(.local, store: nil))
        try expectEqual(event("2014-03-02 09:14:07.318 Journal[412:60b] The user will load local store."), .app)
    }

    @Test func storeManagerFailureInsideItsErrorIsALoadFailure() throws {
        let text = #"UbiquityStoreManager: Error (cause:UbiquityStoreErrorCauseOpenActiveStore): Error Domain=NSCocoaErrorDomain Code=0 "x" UserInfo=0x1 {NSLocalizedFailureReason=Failed to load cloud store.}"#
        try expectEqual(event(text), .storeLoadFailed(.cloud, error: nil))
        try expectEqual(event("UbiquityStoreManager: Failed to load cloud store. Marking cloud store as corrupt. Store will be unavailable.").kind, .cloudStoreMarkedCorrupt)
    }

    @Test func unknownRecords() throws {
        try expectEqual(event("2014-03-02 09:14:07.318 Journal[412:60b] CoreData: Ubiquity:  Something new"), .unhandled(limitHit: false))
        try expectEqual(event("2014-03-02 09:14:07.318 Journal[412:60b] Saved the entry"), .app)
        try expectEqual(event("2014-03-02 09:14:07.318 Journal[412:60b] CoreData: error: (19) PRIMARY KEY must be unique").kind, .coreDataError)
    }

    @Test func oldWordingsAndTypos() throws {
        try expectEqual(event("CoreData: Ubiquity:  Post store setup succeeded.").kind, .storeSetupFinished)
        try expectEqual(event("CoreData: Ubiquity:  Import operation had trouble with the filesystem, x\n The log file is at: /a/b.cdt.").kind, .importFailed)
    }
}

/// `parselogs explain`: every kind and every listed error code is explained, from the catalogue.
@Suite struct ExplanationTests {
    @Test func everyProblemKindSaysWhatToDo() throws {
        for kind in try Catalog.standard().kinds where kind.severity >= .warning {
            expectEqual(kind.guidance.action?.isEmpty, false, "\(kind.id) has no action")
        }
    }

    @Test func guidanceNamesOnlyKindsThatExist() throws {
        let ids = Set(try Catalog.standard().kinds.map(\.id))
        for family in Catalog.families {
            for id in family.guidance.keys { expect(ids.contains(id), "\(id)") }
        }
    }

    @Test func aKindIsExplainedWithMeaningNextAndAction() throws {
        let text = try Explanation.text(for: "import-failed", catalog: try Catalog.standard())
        expect(text.hasPrefix("import-failed (import, error, shown by default)\n"))
        expect(text.contains("What happens next:\n  Core Data retries the log later"))
        expect(text.contains("What to do:\n  Read the error"))
        expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    @Test func anInfoKindHasNoActionButSaysWhatFollows() throws {
        let text = try Explanation.text(for: "import-progress", catalog: try Catalog.standard())
        expect(text.contains("What happens next:"))
        expect(!text.contains("What to do:"))
    }

    @Test func errorCodesAreExplained() throws {
        for code in [134030, 134060, 134080, 134100, 134110, 134302, 134307, 134311, 134312, 134326, 134327] {
            let text = try Explanation.text(for: String(code), catalog: try Catalog.standard())
            expect(text.hasPrefix("\(code) "))
            expect(text.contains("What to do:"))
        }
    }

    @Test func theListingHasEveryKindUnderItsCategory() throws {
        let catalog = try Catalog.standard()
        let text = try Explanation.text(for: nil, catalog: catalog)
        for kind in catalog.kinds { expect(text.contains("\n  \(kind.id) "), "\(kind.id)") }
        expect(text.contains("\nbaseline\n"))
    }

    @Test func anUnknownTopicIsAnError() throws {
        #expect(throws: Explanation.UnknownTopic.self) { try Explanation.text(for: "no-such-kind", catalog: try Catalog.standard()) }
        #expect(throws: Explanation.UnknownTopic.self) { try Explanation.text(for: "999", catalog: try Catalog.standard()) }
    }

    @Test func theHintIsTheActionsFirstSentence() {
        expectEqual(Explanation.hint(for: .importFailed), "Read the error or exception under it and look up the error's code (`parselogs explain CODE`).")
        expect(Explanation.hint(for: .importProgress) == nil)
        // For every kind: the action up to and with the first full stop followed by a blank.
        for kind in try! Catalog.standard().kinds {
            guard let action = kind.guidance.action else { continue }
            let sentence = action.firstRange(of: ". ").map { String(action[..<action.index(after: $0.lowerBound)]) } ?? action
            expectEqual(Explanation.hint(for: kind), sentence, "\(kind.id)")
        }
    }
}

/// `--unhandled`: unknown records grouped into templates.
@Suite struct UnhandledReportTests {
    @Test func addressesUUIDsPathsAndNumbersAreFolded() {
        let folder = TemplateFolder()
        expectEqual(folder.fold("<PFUbiquityFoo: 0x1d5a3b40> moved 12 logs to /var/mobile/Library/Mobile Documents/X~y/z.cdt, peer 6F2C0E8A-1B7D-4C55-9A34-2B8E1D0C7F11 v2.5"), "<PFUbiquityFoo: 0x…> moved <n> logs to <path>, peer <uuid> v2.5")
        expectEqual(folder.fold("file:///tmp/a b"), "<path> b")
    }

    @Test func templatesAreCountedAndRankedWithOneExample() throws {
        let output = CapturedOutput()
        let reporter = UnhandledReporter(output: output.writer)
        let log = """
            2014-03-02 09:14:07.318 Journal[412:60b] CoreData: Ubiquity:  Frobnicated 4 widgets.
            2014-03-02 09:14:07.319 Journal[412:60b] CoreData: Ubiquity:  Sprocket 0x15d5a2c0 went away
            2014-03-02 09:14:07.320 Journal[412:60b] CoreData: Ubiquity:  Frobnicated 17 widgets.
            2014-03-02 09:14:07.321 Journal[412:60b] CoreData: Ubiquity:  Initializing stack(<_PFUbiquityStack: 0x1>) with metadata entry: x
            """
        let classifier = Classifier(catalog: try Catalog.standard())
        for record in try assemble(log) {
            reporter.report(ClassifiedRecord(record: record, classification: classifier.classify(record)))
        }
        var summary = RunSummary()
        summary.unhandled = 3
        summary.syncRecords = 4
        reporter.finish(summary)
        expectEqual(output.text, """
            3 unhandled records of 4 sync records, in 2 templates

            2×  Frobnicated <n> widgets.
                e.g. test.log:1: Frobnicated 4 widgets.

            1×  Sprocket 0x… went away
                e.g. test.log:2: Sprocket 0x15d5a2c0 went away

            """)
    }
}

/// The facts the catalogue's phrase rules extract: the phrase, numbers, and for problems the
/// error (iOS 7 and iOS 9 forms, nested), log file, URL and peer.
@Suite struct CatalogueFactTests {
    private func event(_ text: String) throws -> Event {
        let results = try classify(text)
        try require(results.count == 1)
        return results[0].classification.event
    }

    private func field(_ event: Event, _ name: String) -> FieldValue? { event.fields.first { $0.name == name }?.value }

    @Test func aBaselineFailureNamesItsStepAndError() throws {
        let sample = try require(Catalog.standardRules.first { $0.id == "baseline-failed" }?.samples.first)
        let failed = try event(sample)
        expectEqual(failed.kind, .baselineFailed)
        expectEqual(field(failed, "what"), .string("Unable to adopt older baseline"))
        guard case .object(let error)? = field(failed, "error") else { Issue.record("no error"); return }
        expect(error.contains(Field("code", .int(134302))))
        expect(error.contains(Field("reason", .string("Could not read the transaction log"))))
    }

    @Test func iOS9ErrorsWithAnUnderlyingErrorAndAFile() throws {
        let text = """
            2016-03-02 09:14:07.318 Journal[412:60b] -[PFUbiquitySetupAssistant finishSetupForStore:error:](1012): CoreData: Ubiquity:  <PFUbiquitySetupAssistant: 0x15d4e0a0>
            Error moving local log files to the ubiquity directory: Error Domain=NSCocoaErrorDomain Code=134080 "(null)" UserInfo={NSFilePath=/var/mobile/x.cdt, NSUnderlyingError=0x15ea1b20 {Error Domain=NSPOSIXErrorDomain Code=13 "Permission denied" UserInfo={reason=no write access}}, reason=Unable to create the ubiquity metadata directory}
            """
        let error = try require(event(text).error ?? Extract.error(in: text))
        expectEqual(error.code, 134080)
        expectEqual(error.filePath, "/var/mobile/x.cdt")
        expectEqual(error.reason, "Unable to create the ubiquity metadata directory")
        expectEqual(error.underlying, [ErrorInfo(domain: "NSPOSIXErrorDomain", code: 13, description: "Permission denied", reason: "no write access")])
        guard case .object(let fields)? = field(try event(text), "error") else { Issue.record("no error field"); return }
        expect(fields.contains { $0.name == "underlying" })
    }

    @Test func warningsNameTheLogFileURLAndPeer() throws {
        let text = "2014-03-02 09:14:07.318 Journal[412:60b] -[_PFUbiquityRecordsImporter createSortedOperationsArrayWithMetadata:isFirstImport:](1133): CoreData: Ubiquity:  Transaction log went missing: file:///var/mobile/Library/Mobile%20Documents/X/CoreDataLogs/mobile~A3D19B52-7E0C-4F8A-B1D6-5C2E9F04A7B3/JournalStore/S/DAC8E3F1-2B4A-4C6D-8E9F-0A1B2C3D4E5F.1.cdt"
        let problem = try event(text)
        expectEqual(problem.kind, .importProblem)
        expectEqual(field(problem, "log"), .string("DAC8E3F1-2B4A-4C6D-8E9F-0A1B2C3D4E5F.1.cdt"))
        expectEqual(field(problem, "peer"), .string("mobile~A3D19B52-7E0C-4F8A-B1D6-5C2E9F04A7B3"))

        let failed = try event("2014-03-02 09:14:07.318 Journal[412:60b] -[PFUbiquityRecordImportConflict resolveConflict:](301): CoreData: Ubiquity:  <PFUbiquityRecordImportConflict: 0x15ea0c10>\n\tubiquityRootLocation: <PFUbiquityLocation: 0x15e53120>: /var/mobile/Library/Mobile Documents/X/CoreDataLogs\n\ttransactionNumber: 7 aborting conflict resolution, unable to create snapshot for transaction entry: <PFUbiquityTransactionEntry: 0x1>")
        expectEqual(failed.kind, .importConflictFailed)
        expectEqual(field(failed, "ubiquityRoot"), .string("/var/mobile/Library/Mobile Documents/X/CoreDataLogs"))
        expectEqual(field(failed, "transaction"), .int(7))
    }

    @Test func numbersAfterTheObjectDescription() throws {
        let retry = try event("2014-03-02 09:14:07.318 Journal[412:60b] -[PFUbiquitySetupAssistant finishSetupWithRetry:](930): CoreData: Ubiquity:  <PFUbiquitySetupAssistant: 0x15d4e0a0>\n\tstoreName: JournalStore: Retrying after delay: 60\nError Domain=NSCocoaErrorDomain Code=134080 \"x\" UserInfo={}")
        expectEqual(retry.kind, .setupRetry)
        expectEqual(field(retry, "delay"), .int(60))
        expect(field(retry, "error") != nil)
        let migration = try event("CoreData: Ubiquity:  Migrating 12 transaction log files for 'JournalStore' at '/var/x'")
        expectEqual(field(migration, "count"), .int(12))
    }

    @Test func messagesThatAreOnlyValuesAreKnownByTheirMethod() throws {
        let method = "-[PFUbiquitySetupAssistant performCoordinatorPostStoreSetup:error:]"
        let results = try classify("2014-03-02 09:14:07.318 Journal[412:60b] __61\(method)_block_invoke_2(1302): CoreData: Ubiquity:  <PFUbiquitySetupAssistant: 0x15d4e0a0>")
        expectEqual(results.first?.classification.rule?.id, "setup-progress-by-method")
        // Without the method (iOS 6), the object it starts with tells: the setup assistant logs
        // its bare description only from the steps of a store's set-up.
        let ios6 = try classify("2012-11-20 18:02:41.770 Journal[233:1303] CoreData: Ubiquity:  <PFUbiquitySetupAssistant: 0x15d4e0a0>")
        expectEqual(ios6.first?.classification.rule?.id, "setup-progress-by-description")
        // An object no such rule knows stays unhandled, and a description with a method that
        // rules do not name is not taken for one without.
        try expectEqual(event("2012-11-20 18:02:41.770 Journal[233:1303] CoreData: Ubiquity:  <PFUbiquityBaseline: 0x15d4e0a0>"), .unhandled(limitHit: false))
        try expectEqual(event("2014-03-02 09:14:07.318 Journal[412:60b] -[PFUbiquitySetupAssistant other:](12): CoreData: Ubiquity:  <PFUbiquitySetupAssistant: 0x15d4e0a0>"), .unhandled(limitHit: false))
        expectEqual(CompiledChannel.baseMethod("__61-[A b:]_block_invoke_2"), "-[A b:]")
    }

    @Test func coreDataLinesBesideTheUbiquityMarker() throws {
        let illegal = try event("2014-03-02 09:14:07.318 Journal[412:60b] CoreData: Illegal attempt to return an error without one in /Sources/PFUbiquityBaseline.m:412")
        expectEqual(illegal.kind, .missingErrorObject)
        expectEqual(field(illegal, "line"), .int(412))
        try expectEqual(event("CoreData: error: Unable to dynamically link CloudDocs.framework").kind, .cloudDocsUnavailable)
    }
}

/// The first bytes the classifier's per-rule lookahead allows.
@Suite struct LeadingBytesTests {
    @Test func literalsGroupsAndAlternations() {
        expectEqual(LeadingBytes.of(#"Using local storage: (?<local>[01])"#), [UInt8(ascii: "U")])
        expectEqual(LeadingBytes.of(#"(?<what>Error: A|Unable to|\(x\)|It appears)"#), Set("EU(I".utf8))
        expectEqual(LeadingBytes.of(#"(?:Scheduling|adding) root scan|Finished"#), Set("SaF".utf8))
    }

    @Test func anOptionalFirstItemAddsWhatFollows() {
        expectEqual(LeadingBytes.of(PatternPiece.objectPrefix + "Successfully wrote"), Set("<S".utf8))
        expectEqual(LeadingBytes.of(#"[ ]*iCloud"#), Set(" i".utf8))
        expectEqual(LeadingBytes.of(#"(?:Truncated )?[Pp]ath: "#), Set("TPp".utf8))
        expectEqual(LeadingBytes.of(#"a{0,3}?b|c+d"#), Set("abc".utf8))
        expect(LeadingBytes.of(#"(?:x)?"#) == nil, "a pattern that can match nothing")
        expect(LeadingBytes.of(#"a?|b"#) == nil)
    }

    @Test func anythingHarderIsAny() {
        expect(LeadingBytes.of(#"[^ ]x"#) == nil)
        expect(LeadingBytes.of(#"[a-z]x"#) == nil)
        expect(LeadingBytes.of(#"(?i)not enough"#) == nil)
        expect(LeadingBytes.of(#"\d+ logs"#) == nil)
        expect(LeadingBytes.of(#"(?s:.*)"#) == nil)
    }

    @Test func aCaselessGroupStartsWithEitherCase() {
        expectEqual(LeadingBytes.of(#"(?i:not enough)"#), Set("nN".utf8))
        expectEqual(LeadingBytes.of(#"(?i:[ab]c)"#), Set("aAbB".utf8))
    }

    @Test func theClassEscapesWhatIsSpecialInIt() {
        expectEqual(LeadingBytes.characterClass(Set("]^a-".utf8)), #"[\-\]\^a]"#)
    }

    @Test func mostRulesGetAGuard() throws {
        let lineStart = Catalog.standardRules.filter { $0.channel == .ubiquity && $0.position == .lineStart }
        let guarded = lineStart.filter { LeadingBytes.of($0.pattern) != nil }
        expect(guarded.count * 10 >= lineStart.count * 7, "\(guarded.count) of \(lineStart.count)")
    }
}

extension CatalogueFactTests {
    @Test func methodRulesTakeOnlyWhatTheirFormatsPrint() throws {
        // An unknown error from a method whose bare `%@` message is routine stays unhandled.
        let unknown = "2014-03-02 09:14:07.318 Journal[412:60b] -[PFUbiquitySetupAssistant finishSetupForStore:error:](1099): CoreData: Ubiquity:  <PFUbiquitySetupAssistant: 0x15d4e0a0>\nSomething new went wrong: Error Domain=NSCocoaErrorDomain Code=1 \"x\" UserInfo={}"
        try expectEqual(classify(unknown).first?.classification.event, .unhandled(limitHit: false))
    }
}
