// Store-load stories across UbiquityStoreManager's older wordings (issue #28, item 5): older
// versions print `Error (cause:…): Error Domain=… Code=… UserInfo=…` with no failure reason
// of their own; after a load has started, such an error ends the attempt as failed, with it.
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct OlderStoreManagerTests {
    static func line(_ time: String, _ message: String) -> String { "2014-03-02 09:14:\(time) Journal[412:60b] \(message)" }

    static let errors = [
        #"Error Domain=NSCocoaErrorDomain Code=134100 "The operation couldn’t be completed. (Cocoa error 134100.)" UserInfo=0x15e8c2d0 {metadata={NSPersistenceFrameworkVersion = 479; NSStoreModelVersionHashesVersion = 3;}, reason=The model used to open the store is incompatible with the one used to create the store}"#,
        #"Error Domain=NSCocoaErrorDomain Code=134100 "(null)" UserInfo={metadata={\n    NSPersistenceFrameworkVersion = 641;\n}, reason=The model used to open the store is incompatible with the one used to create the store}"#,
    ]

    /// Every cause a load step raises ends the attempt, whatever the prefix before the
    /// manager's words (its own, an app logger's) and the error's style.
    @Test(arguments: ["UbiquityStoreErrorCauseOpenActiveStore", "UbiquityStoreErrorCauseCreateStorePath", "UbiquityStoreErrorCauseOpenSeedStore",
                      "UbiquityStoreErrorCauseSeedStore", "UbiquityStoreErrorCauseConfirmActiveStore", "UbiquityStoreErrorCauseCorruptActiveStore"])
    func anErrorAfterALoadStartedEndsItAsFailed(_ cause: String) throws {
        for prefix in ["UbiquityStoreManager: ", "[USM] "] {
            for error in Self.errors {
                let log = [
                    Self.line("07.100", "\(prefix)Will load cloud store."),
                    Self.line("07.900", "\(prefix)Error (cause:\(cause)): \(error)"),
                ].joined(separator: "\n")
                let (text, summary) = try timeline(log)
                let load = try require(summary.ubiquity.storeLoadAttempts.first, "\(prefix) \(cause)")
                expectEqual(load.outcome, .failed, "\(prefix) \(cause)")
                expectEqual(load.store, .cloud)
                expectEqual(load.error?.code, 134100)
                expectEqual(load.error?.reason, "The model used to open the store is incompatible with the one used to create the store")
                expectEqual(load.durationMilliseconds, 800)
                expectEqual(summary.ubiquity.storeLoads.failed[.cloud], 1)
                expectEqual(summary.verdict, .broken)
                expect(text.contains("Error (cause:\(cause)): NSCocoaErrorDomain 134100: The model used to open the store is incompatible with the one used to create the store"), "\(prefix) \(cause)")
                expect(text.contains("(parselogs explain 134100)"))
                expect(text.contains("cloud store  failed after 800 ms: NSCocoaErrorDomain 134100: The model used"))
            }
        }
    }

    /// Newer versions print both the error and `Failed to load … store.`: one failure.
    @Test func theFailureMessageAfterTheErrorIsTheSameFailure() throws {
        let log = [
            Self.line("07.100", "UbiquityStoreManager: Will load local store."),
            Self.line("07.900", "UbiquityStoreManager: Error (cause:UbiquityStoreErrorCauseOpenActiveStore): \(Self.errors[1])"),
            Self.line("08.000", "UbiquityStoreManager: Failed to load local store."),
        ].joined(separator: "\n")
        let summary = try summarize([("a.log", log)])
        expectEqual(summary.ubiquity.storeLoads.attempted, 1)
        expectEqual(summary.ubiquity.storeLoads.failed[.local], 1)
        expectEqual(summary.ubiquity.storeLoadAttempts.count, 1)
        expectEqual(summary.ubiquity.storeLoadAttempts.first?.outcome, .failed)
        expectEqual(summary.ubiquity.storeLoadAttempts.first?.error?.code, 134100)
    }

    /// Newer versions wrap the failure in an error of code 0 and print the real one as
    /// `- Underlying: …`, in a record of its own or on the failure's continuation lines (an
    /// app's delegate logger): that error is the failed attempt's.
    @Test func theUnderlyingDetailIsTheFailuresRootCause() throws {
        let wrapped = #"Error Domain=NSCocoaErrorDomain Code=0 "(null)" UserInfo={NSLocalizedFailureReason=Failed to load cloud store.}"#
        let underlying = #"Error Domain=NSCocoaErrorDomain Code=134110 "(null)" UserInfo={reason=Can't find mapping model for migration, giving up}"#
        let separate = [
            Self.line("07.100", "UbiquityStoreManager: Will load cloud store."),
            Self.line("07.900", "UbiquityStoreManager: Error (cause:UbiquityStoreErrorCauseOpenActiveStore): \(wrapped)"),
            Self.line("07.901", "UbiquityStoreManager:     - Context   : /var/mobile/Containers/Data/Application/X/Library/Journal.sqlite"),
            Self.line("07.902", "UbiquityStoreManager:     - Underlying: \(underlying)"),
        ].joined(separator: "\n")
        let continued = [
            Self.line("07.100", "[MyApp] Will load cloud store."),
            Self.line("07.900", "[MyApp] Error (cause:UbiquityStoreErrorCauseOpenActiveStore): \(wrapped)")
                + "\n    - Context   : /var/mobile/Containers/Data/Application/X/Library/Journal.sqlite\n    - Underlying: \(underlying)",
        ].joined(separator: "\n")
        for log in [separate, continued] {
            let summary = try summarize([("e.log", log)])
            let load = try require(summary.ubiquity.storeLoadAttempts.first)
            expectEqual(load.outcome, .failed)
            expectEqual(load.error?.code, 134110)
            expectEqual(load.error?.reason, "Can't find mapping model for migration, giving up")
        }
        let (text, _) = try timeline(continued)
        expect(text.contains("Failed to load the cloud store: NSCocoaErrorDomain 134110: Can't find mapping model for migration, giving up"))
        expect(text.contains("(parselogs explain 134110)"))
    }

    /// Causes that are not load steps (deleting a store, merging imported changes) leave the
    /// attempt as it was; so does an error with no attempt under way.
    @Test func otherCausesDoNotEndALoad() throws {
        let deleting = [
            Self.line("07.100", "UbiquityStoreManager: Will load cloud store."),
            Self.line("07.200", #"UbiquityStoreManager: Error (cause:UbiquityStoreErrorCauseDeleteStore): Error Domain=NSCocoaErrorDomain Code=4 "(null)" UserInfo={NSFilePath=/var/mobile/StoreUUID}"#),
            Self.line("07.300", "UbiquityStoreManager: Successfully loaded cloud store."),
        ].joined(separator: "\n")
        let loads = try summarize([("b.log", deleting)]).ubiquity.storeLoadAttempts
        expectEqual(loads.map(\.outcome), [.succeeded])
        let alone = Self.line("07.200", "UbiquityStoreManager: Error (cause:UbiquityStoreErrorCauseOpenActiveStore): \(Self.errors[0])")
        try expect(summarize([("c.log", alone)]).ubiquity.storeLoadAttempts.isEmpty)
    }

    /// A retry after such a failure is a retry, and its success recovers the incident.
    @Test func aRetryAfterTheOlderFailureRecovers() throws {
        let log = [
            Self.line("07.100", "UbiquityStoreManager: Will load cloud store."),
            Self.line("07.900", "UbiquityStoreManager: Error (cause:UbiquityStoreErrorCauseOpenActiveStore): \(Self.errors[0])"),
            Self.line("08.000", "UbiquityStoreManager: Will load local store."),
            Self.line("08.200", "UbiquityStoreManager: Successfully loaded local store."),
        ].joined(separator: "\n")
        let summary = try summarize([("d.log", log)])
        expectEqual(summary.ubiquity.storeLoadAttempts.map(\.outcome), [.failed, .succeeded])
        expectEqual(summary.ubiquity.storeLoadAttempts.last?.isRetry, true)
        expectEqual(summary.verdict, .degraded)
    }
}
