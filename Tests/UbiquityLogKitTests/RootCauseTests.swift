// The root cause on the line (issue #28, item 2): an event that carries an error shows its
// domain, code and whole reason, the file and the error under it, in the timeline, the
// verdict's evidence and the JSON fields, wherever in the record the error is printed; the
// hint under it names the code seen, and `explain` knows that code.
import Testing
import TestSupport
@testable import UbiquityLogKit

/// The timeline and summary a run prints for `log`, and the summary itself.
func timeline(_ log: String, verbosity: Int = 0) throws -> (text: String, summary: RunSummary) {
    let output = CapturedOutput()
    let run = LogRun(catalog: try Catalog.standard(), reporters: [TextReporter(output: output.writer, options: TextOptions(verbosity: verbosity))])
    var source = MemorySource(log)
    try run.process(&source, name: "t.log")
    let summary = run.finish()
    return (output.text, summary)
}

@Suite struct RootCauseTests {
    static let ios7 = "2014-03-02 09:14:07.318 Journal[412:60b] "
    static let console = "Mar  2 09:14:07 Joes-iPad Journal[412] <Warning>: "
    static let ios6 = "2012-11-20 18:02:41.770 Journal[233:1303] "
    static let logPath = "/var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/CoreDataLogs/mobile~A3D19B52-7E0C-4F8A-B1D6-5C2E9F04A7B3/JournalStore/6F0D/DAC8E3F1-2B4A.3.cdt"

    // MARK: reasons and errors parsed whole

    /// A reason with commas, in both user-info styles and in a printed dictionary.
    @Test(arguments: [
        #"Error Domain=NSCocoaErrorDomain Code=134302 "The operation couldn’t be completed. (Cocoa error 134302.)" UserInfo=0x1e5c3a40 {reason=Error while importing, the log could not be read, it ends early}"#,
        #"Error Domain=NSCocoaErrorDomain Code=134302 "(null)" UserInfo={reason=Error while importing, the log could not be read, it ends early}"#,
        #"Error Domain=NSCocoaErrorDomain Code=134302 "(null)" UserInfo={NSFilePath=/tmp/x.cdt, reason=Error while importing, the log could not be read, it ends early}"#,
        "Error Domain=NSCocoaErrorDomain Code=134302 \"(null)\" UserInfo={\n    reason = \"Error while importing, the log could not be read, it ends early\";\n}",
        "Error Domain=NSCocoaErrorDomain Code=134302 \"(null)\" UserInfo={\n    reason = Error while importing, the log could not be read, it ends early;\n}",
    ])
    func aReasonKeepsItsCommas(_ printed: String) throws {
        let error = try require(Extract.error(in: printed))
        expectEqual(error.domain, "NSCocoaErrorDomain")
        expectEqual(error.code, 134302)
        expectEqual(error.reason, "Error while importing, the log could not be read, it ends early")
    }

    /// A generic localized description printed before the reason does not hide it.
    @Test func theReasonWinsOverADescriptionBeforeIt() throws {
        let printed = #"Error Domain=NSCocoaErrorDomain Code=134311 "(null)" UserInfo={NSLocalizedDescription=The operation couldn’t be completed, sorry, reason=The provided ubiquity name is already in use.}"#
        expectEqual(Extract.error(in: printed)?.reason, "The provided ubiquity name is already in use.")
        let described = #"Error Domain=BRCloudDocsErrorDomain Code=6 "x" UserInfo={NSDescription=Path is outside of any CloudDocs app library, will never sync}"#
        expectEqual(Extract.error(in: described)?.reason, "Path is outside of any CloudDocs app library, will never sync")
    }

    /// Every key a file, a description or an underlying error is read from, spelt out here: the
    /// patterns for them run only when a text each key holds is in the error (`Extract.Needed`),
    /// so a key that holds none of those texts would be missed.
    @Test(arguments: ["NSFilePath", "NSURL", "NSFileURL", "NSStoreURL", "NSDestinationFilePath", "NSSourceFilePathErrorKey"])
    func everyFileKeyIsRead(_ key: String) throws {
        let printed = #"Error Domain=NSCocoaErrorDomain Code=4 "x" UserInfo={"# + key + "=/var/mobile/Library/Journal.sqlite}"
        expectEqual(Extract.error(in: printed)?.filePath, "/var/mobile/Library/Journal.sqlite")
        expect(Extract.error(in: #"Error Domain=NSCocoaErrorDomain Code=4 "x" UserInfo={NSFile=/var/mobile/x}"#)?.filePath == nil)
    }

    @Test(arguments: ["NSLocalizedDescription", "NSDescription"])
    func everyDescriptionKeyIsRead(_ key: String) throws {
        let printed = #"Error Domain=NSCocoaErrorDomain Code=4 "x" UserInfo={"# + key + "=Disk full}"
        expectEqual(Extract.error(in: printed)?.reason, "Disk full")
        let under = #"Error Domain=NSCocoaErrorDomain Code=4 "x" UserInfo={NSUnderlyingError=0x1 {Error Domain=NSPOSIXErrorDomain Code=28 "No space" UserInfo={"# + key + "=Disk full}}}"
        expectEqual(Extract.error(in: under)?.underlying.first?.reason, "Disk full")
    }

    @Test func theNextEntryEndsAReasonAndTheErrorUnderItIsItsOwn() throws {
        let printed = #"Error Domain=NSCocoaErrorDomain Code=134080 "(null)" UserInfo={reason=Could not move the logs, giving up, NSUnderlyingError=0x15ea1b20 {Error Domain=NSPOSIXErrorDomain Code=13 "Permission denied" UserInfo={NSFilePath=/var/mobile/x, NSLocalizedDescription=Permission denied, read-only}}, NSFilePath=/var/mobile/Library/Journal.sqlite}"#
        let error = try require(Extract.error(in: printed))
        expectEqual(error.reason, "Could not move the logs, giving up")
        expectEqual(error.filePath, "/var/mobile/Library/Journal.sqlite")
        let inner = try require(error.underlying.first)
        expect(inner.domain == "NSPOSIXErrorDomain" && inner.code == 13)
        expectEqual(inner.reason, "Permission denied, read-only")
        expectEqual(inner.filePath, "/var/mobile/x")
        expectEqual(error.oneLine, "NSCocoaErrorDomain 134080: Could not move the logs, giving up; file: /var/mobile/Library/Journal.sqlite; underlying: NSPOSIXErrorDomain 13: Permission denied, read-only; file: /var/mobile/x")
    }

    /// iOS 7 prints an underlying error as its address and description only: its domain and
    /// code come from the description. An error printed later in the record is not it.
    @Test func anIOS7UnderlyingErrorIsReadFromItsDescription() throws {
        let printed = #"Error Domain=NSCocoaErrorDomain Code=134080 "The operation couldn’t be completed. (Cocoa error 134080.)" UserInfo=0x1e5c3a40 {NSUnderlyingError=0x1e5c3b00 "The operation couldn’t be completed. (Cocoa error 134302.)", reason=failed finishing setup for store during asynchronous iCloud initialization}"#
        let error = try require(Extract.error(in: printed))
        expectEqual(error.reason, "failed finishing setup for store during asynchronous iCloud initialization")
        expectEqual(error.underlying.first?.domain, "NSCocoaErrorDomain")
        expectEqual(error.underlying.first?.code, 134302)
        let posix = try require(Extract.error(in: #"Error Domain=NSCocoaErrorDomain Code=256 "x" UserInfo=0x1 {NSUnderlyingError=0x2 "The operation couldn’t be completed. (NSPOSIXErrorDomain error 13 - Permission denied)"}"#))
        expectEqual(posix.underlying.first.map { "\($0.domain) \($0.code)" }, "NSPOSIXErrorDomain 13")
        let later = try require(Extract.error(in: "Error Domain=NSCocoaErrorDomain Code=256 \"x\" UserInfo={NSUnderlyingError=0x2 \"gone\"}\nOther: Error Domain=NSPOSIXErrorDomain Code=2 \"No such file or directory\""))
        expect(later.underlying.isEmpty)
    }

    @Test func aGenericDescriptionGivesWayToCloudDocsWords() throws {
        let generic = try require(Extract.error(in: #"Error Domain=NSCocoaErrorDomain Code=4 "The operation couldn’t be completed. (Cocoa error 4.)""#))
        expectEqual(generic.oneLine, "NSCocoaErrorDomain 4")
        let cloudDocs = try require(Extract.error(in: #"Error Domain=BRCloudDocsErrorDomain Code=12 "The operation couldn’t be completed. (BRCloudDocsErrorDomain error 12 - Logged out - iCloud Drive is not configured)""#))
        expectEqual(cloudDocs.oneLine, "BRCloudDocsErrorDomain 12: Logged out - iCloud Drive is not configured")
    }

    // MARK: the timeline, the evidence and the JSON fields

    /// An import failure whose error is on the line under its message, in several header
    /// styles: the headline, the finding and the verdict's evidence show the whole cause.
    @Test(arguments: [ios7 + "-[_PFUbiquityRecordsImporter operation:failedWithError:](1489): ", console + "-[_PFUbiquityRecordsImporter operation:failedWithError:](1511): ", ios6])
    func anErrorOnAContinuationLineIsShownWhole(_ prefix: String) throws {
        let log = prefix + "CoreData: Ubiquity:  Import operation encountered an error:\n"
            + #"Error Domain=NSCocoaErrorDomain Code=134302 "The operation couldn’t be completed. (Cocoa error 134302.)" UserInfo=0x1e5c3a40 {reason=Error while importing, the log could not be read, NSUnderlyingError=0x1e5c3b50 {Error Domain=NSPOSIXErrorDomain Code=2 "No such file or directory"}}"#
            + "\nuserInfo: {}. While trying to import the log file at the URL: file://\(Self.logPath)\n"
        let cause = "NSCocoaErrorDomain 134302: Error while importing, the log could not be read; underlying: NSPOSIXErrorDomain 2: No such file or directory"
        let (text, summary) = try timeline(log)
        expect(text.contains("Import failed for log DAC8E3F1-2B4A.3.cdt: \(cause)  (t.log:1)"))
        // The hint explains the deepest known code: the missing file under the import failure.
        expect(text.contains("      hint: Look at the file the error names: a missing container file usually reappears once iCloud has synced; a missing store file means the store must be rebuilt from the cloud. (parselogs explain NSPOSIXErrorDomain:2)"))
        expectEqual(summary.verdict, .broken)
        expectEqual(summary.verdicts.first?.evidence.first?.contains(cause), true)
    }

    /// A message event (a phrases rule) whose error follows on later lines: the headline is
    /// the message's words and then the error, and the JSON fields hold it as an object.
    @Test(arguments: [ios7 + "-[_PFUbiquityRecordsImporter metadataInconsistencyDetectedForStore:]_block_invoke(1770): ", ios6, "", console])
    func aMessageEventShowsItsErrorAfterItsWords(_ prefix: String) throws {
        let log = prefix + "CoreData: Ubiquity:  <_PFUbiquityRecordsImporter: 0x1d5a3b40>\nError during metadata recovery for store: <NSSQLCore: 0x15d52f60>\nError: "
            + #"Error Domain=NSCocoaErrorDomain Code=134312 "(null)" UserInfo={reason=Store metadata recovery appears to have failed, please try adding the store to the coordinator again.}"#
            + "\nUser Info: {\n}\n"
        let records = try classify(log)
        let item = try require(records.first)
        expectEqual(item.classification.event.kind, .metadataError)
        let error = try require(item.classification.event.error)
        expectEqual(error.code, 134312)
        expectEqual(error.reason, "Store metadata recovery appears to have failed, please try adding the store to the coordinator again.")
        let headline = Headline.of(ClassifiedRecord(record: item.record, classification: item.classification))
        expectEqual(headline, "Error during metadata recovery for store: <NSSQLCore: 0x15d52f60>: NSCocoaErrorDomain 134312: Store metadata recovery appears to have failed, please try adding the store to the coordinator again.")
        let (text, summary) = try timeline(log)
        expect(text.contains("(parselogs explain 134312)"))
        expectEqual(summary.findings.first?.message, headline)
    }

    /// An error printed on the message's own line is cut from the words and shown parsed.
    @Test func anErrorOnTheSameLineIsNotPrintedTwice() throws {
        let log = Self.ios7 + "-[PFUbiquityFileCoordinator shouldRetryForError:ignoreFile:](97): CoreData: Ubiquity:  Encountered unrecoverable error: "
            + #"Error Domain=NSCocoaErrorDomain Code=256 "The operation couldn’t be completed. (Cocoa error 256.)" UserInfo={NSFilePath=/var/mobile/x.cdt, NSUnderlyingError=0x1 {Error Domain=NSPOSIXErrorDomain Code=13 "Permission denied"}}"#
        let (text, _) = try timeline(log)
        expect(text.contains("ERROR Encountered unrecoverable error: NSCocoaErrorDomain 256; file: /var/mobile/x.cdt; underlying: NSPOSIXErrorDomain 13: Permission denied  (t.log:1)"))
        expect(text.contains("(parselogs explain NSPOSIXErrorDomain:13)"), "the deepest known code is explained")
    }

    /// The hint names the code seen, whatever the kind; a code `explain` does not know
    /// leaves the hint to the kind.
    @Test func theHintNamesTheCodeSeen() throws {
        for (code, reason) in [(134311, "The provided ubiquity name is already in use."), (134080, "failed to seed store during asynchronous iCloud setup"), (134060, "import operation's context lost its stack")] {
            let log = Self.ios7 + "-[PFUbiquitySetupAssistant moveLocalLogFilesToUbiquityLocationSubdirectory:error:](901): CoreData: Ubiquity:  Error moving local log files to the ubiquity directory: "
                + "Error Domain=NSCocoaErrorDomain Code=\(code) \"(null)\" UserInfo={reason=\(reason)}"
            let (text, _) = try timeline(log)
            expect(text.contains("(parselogs explain \(code))\n"), "\(code)")
            expect(text.contains(": NSCocoaErrorDomain \(code): \(reason)"), "\(code)")
        }
        let unknown = Self.ios7 + "-[PFUbiquitySetupAssistant moveLocalLogFilesToUbiquityLocationSubdirectory:error:](901): CoreData: Ubiquity:  Error moving local log files to the ubiquity directory: Error Domain=NSCocoaErrorDomain Code=77 \"(null)\""
        let (text, _) = try timeline(unknown)
        expect(text.contains("(parselogs explain setup-error)\n"))
        // The root cause under an unknown code is the one explained.
        let nested = Self.ios7 + "-[PFUbiquitySetupAssistant moveLocalLogFilesToUbiquityLocationSubdirectory:error:](901): CoreData: Ubiquity:  Error moving local log files to the ubiquity directory: Error Domain=NSCocoaErrorDomain Code=77 \"(null)\" UserInfo={NSUnderlyingError=0x1 {Error Domain=NSPOSIXErrorDomain Code=28 \"No space left on device\"}}"
        try expect(timeline(nested).text.contains("(parselogs explain NSPOSIXErrorDomain:28)\n"))
    }

    @Test func theJSONFieldsHoldTheErrorAsAnObject() throws {
        let log = Self.ios7 + "-[_PFUbiquityRecordsImporter batchDownloadTransactionLogsAtLocations:error:]_block_invoke(850): CoreData: Ubiquity:  Librian returned a serious error for starting downloads "
            + #"Error Domain=BRCloudDocsErrorDomain Code=6 "The operation couldn’t be completed. (BRCloudDocsErrorDomain error 6 - Path is outside of any CloudDocs app library, will never sync)" UserInfo={NSDescription=Path is outside of any CloudDocs app library, will never sync}"#
            + " with userInfo {\n}"
        let event = try require(classify(log).first).classification.event
        let field = try require(event.fields.first { $0.name == "error" })
        guard case .object(let parts) = field.value else { Issue.record("not an object"); return }
        expect(parts.contains(Field("domain", .string("BRCloudDocsErrorDomain"))))
        expect(parts.contains(Field("code", .int(6))))
        expect(parts.contains(Field("reason", .string("Path is outside of any CloudDocs app library, will never sync"))))
    }

    // MARK: explain

    @Test(arguments: ["134060", "134080", "134100", "134302", "134307", "134311", "134315", "512", "4", "256", "260", "640", "4354",
                      "BRCloudDocsErrorDomain:6", "BRCloudDocsErrorDomain:12", "BRCloudDocsErrorDomain:999", "NSPOSIXErrorDomain:2", "134399"])
    func explainKnowsTheCodesTheCatalogueMeets(_ topic: String) throws {
        let text = try Explanation.text(for: topic, catalog: try Catalog.standard())
        expect(text.contains("What to do:"), "\(topic)")
        expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    @Test func aSmallCodeListsEveryDomainThatHasIt() throws {
        let text = try Explanation.text(for: "13", catalog: try Catalog.standard())
        expect(text.contains("NSPOSIXErrorDomain 13 EACCES"))
        expect(text.contains("NSSQLiteErrorDomain 13 SQLITE_FULL"))
        #expect(throws: Explanation.UnknownTopic.self) { try Explanation.text(for: "NSCocoaErrorDomain:77", catalog: try Catalog.standard()) }
    }

    /// Every error a rule's samples carry has a code `explain` knows, so that every hint can
    /// name its code.
    @Test func everyCodeInTheRuleSamplesIsExplained() throws {
        let catalog = try Catalog.standard()
        let classifier = Classifier(catalog: catalog)
        for rule in catalog.rules {
            for sample in rule.samples {
                for record in try assemble(sample) {
                    guard let error = classifier.classify(record).event.error, error.code != 0 else { continue }
                    expect(Explanation.rootCauseCode(error) != nil, "\(rule.id): \(error.domain) \(error.code)")
                }
            }
        }
    }
}

/// Every warning or error whose record prints an error carries it: for each such rule's
/// samples, and for the samples with an error appended on a continuation line.
@Suite struct EveryErrorCarriedTests {
    @Test func warningsAndErrorsCarryThePrintedError() throws {
        let catalog = try Catalog.standard()
        let classifier = Classifier(catalog: catalog)
        let appended = #"Error Domain=NSCocoaErrorDomain Code=134060 "(null)" UserInfo={reason=A Core Data error, with a comma}"#
        var missing: [String] = []
        // Typed rules whose formats have no error argument (`Can't process log with score: %@
        // after log with score: %@`, `Skipping (model version hash): %@`, …): nothing to carry.
        let noErrorInFormat: Set<String> = ["log-ahead-of-peer", "incompatible-operation-skipped", "store-migration-failed",
                                            "cloud-corruption-detected", "peer-model-mismatch", "container-stray-file"]
        for rule in catalog.rules where rule.kind.severity >= .warning && !noErrorInFormat.contains(rule.id) {
            for sample in rule.samples {
                let variants = sample.contains("Error Domain=") ? [sample] : [sample + "\n" + appended]
                for variant in variants {
                    for record in try assemble(variant) {
                        let classification = classifier.classify(record)
                        guard classification.rule?.id == rule.id else { continue }
                        // UbiquityStoreManager wraps its own messages in an error of code 0: no root cause.
                        if classification.event.error == nil, !variant.contains("Code=0 ") { missing.append(rule.id) }
                    }
                }
            }
        }
        expect(missing.isEmpty, "\(Set(missing).sorted())")
    }
}
