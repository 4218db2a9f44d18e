import Testing
import TestSupport
@testable import UbiquityLogKit

/// Store loads as stories: attempts from start to outcome, what led to them, the switch
/// from the fallback store to the iCloud store.
@Suite struct StoreLoadTests {
    private func line(_ time: String, _ message: String) -> String { "2014-03-02 09:14:\(time) Journal[412:60b] \(message)" }
    private let error134080 = #"Error Domain=NSCocoaErrorDomain Code=134080 "x" UserInfo={reason=Unable to add the store}"#

    @Test func aCloudLoadWithItsStoreAndDuration() throws {
        let log = [
            line("07.100", "UbiquityStoreManager: Will load cloud store."),
            line("07.200", "UbiquityStoreManager: Loading cloud store: 6F0D0A1E-8C55-4F4C-9C3A-1D2E3F4A5B6C, v1 (definite)."),
            line("08.350", "UbiquityStoreManager: Successfully loaded cloud store."),
        ].joined(separator: "\n")
        let summary = try summarize([("a.log", log)])
        var expected = StoreLoad(input: "a.log", line: 1, start: summary.ubiquity.storeLoadAttempts.first?.start, store: .cloud)
        expected.process = "Journal"
        expected.endLine = 3
        expected.end = summary.ubiquity.storeLoadAttempts.first?.end
        expected.storeUUID = "6F0D0A1E-8C55-4F4C-9C3A-1D2E3F4A5B6C"
        expected.outcome = .succeeded
        expectEqual(summary.ubiquity.storeLoadAttempts, [expected])
        expectEqual(summary.ubiquity.storeLoadAttempts.first?.durationMilliseconds, 1250)
        expectEqual(UbiquityStory.describe(summary.ubiquity.storeLoadAttempts[0]), "a.log:1  cloud store  succeeded in 1.3 s")
    }

    @Test func aFailureWithCoreDataErrorThenARetry() throws {
        let log = [
            line("07.000", "UbiquityStoreManager: Identity token changed: (null) -> <_NSUbiquityIdentityToken: 0x1>"),
            line("07.100", "UbiquityStoreManager: Will load cloud store."),
            line("07.300", "CoreData: error: -addPersistentStoreWithType:SQLite configuration:(null) URL:file:///x/Journal.sqlite options:{} ... returned error \(error134080) with userInfo dictionary {}"),
            line("07.400", "UbiquityStoreManager: Failed to load cloud store."),
            line("07.500", "UbiquityStoreManager: Attempting recovery by rebuilding from cloud content."),
            line("07.600", "UbiquityStoreManager: Will load cloud store."),
            line("09.600", "UbiquityStoreManager: Successfully loaded cloud store."),
        ].joined(separator: "\n")
        let loads = try summarize([("b.log", log)]).ubiquity.storeLoadAttempts
        try require(loads.count == 2)
        expectEqual(loads[0].outcome, .failed)
        expectEqual(loads[0].error?.code, 134080)
        expectEqual(loads[0].storeURL, "file:///x/Journal.sqlite")
        expectEqual(loads[0].after, ["identity-token-changed"])
        expect(!loads[0].isRetry)
        expectEqual(loads[1].outcome, .succeeded)
        expect(loads[1].isRetry)
        expectEqual(loads[1].after, ["store-load-retried"])
        expectEqual(loads[1].durationMilliseconds, 2000)
        expect(UbiquityStory.describe(loads[0]).hasPrefix("b.log:2  cloud store Journal.sqlite  failed after 300 ms: NSCocoaErrorDomain 134080: Unable to add the store (after identity-token-changed)"))
    }

    @Test func theSwitchFromTheFallbackStoreWithItsDelay() throws {
        let log = [
            line("07.000", "-[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:](808): CoreData: Ubiquity:  mobile~6F2C:JournalStore\nUsing local storage: 1"),
            line("52.500", "-[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:](808): CoreData: Ubiquity:  mobile~6F2C:JournalStore\nUsing local storage: 0"),
        ].joined(separator: "\n")
        let summary = try summarize([("c.log", log)])
        expectEqual(summary.ubiquity.localStorageSwitches, [LocalStorageSwitch(input: "c.log", fallbackLine: 1, cloudLine: 3, delayMilliseconds: 45_500)])
        expect(SummaryText.lines(summary).contains("  local storage    fallback store, then the iCloud store 45.5 s later"))
    }

    @Test func unfinishedAttemptsAndSetupRetries() throws {
        let log = [
            line("07.000", "UbiquityStoreManager: Will load cloud store."),
            line("08.000", "-[PFUbiquitySetupAssistant finishSetupWithRetry:](930): CoreData: Ubiquity:  <PFUbiquitySetupAssistant: 0x1>: Retrying after delay: 60\n\(error134080)"),
            line("09.000", "UbiquityStoreManager: Will load local store."),
        ].joined(separator: "\n")
        let summary = try summarize([("d.log", log), ("e.log", line("10.000", "UbiquityStoreManager: Successfully loaded local store."))])
        let loads = summary.ubiquity.storeLoadAttempts
        expectEqual(loads.map(\.outcome), [.unfinished, .unfinished, .succeeded])
        expectEqual(loads[0].setupRetryDelays, [60])
        expectEqual(loads.map(\.input), ["d.log", "d.log", "e.log"], "an attempt does not run on into the next input")
        expectEqual(summary.ubiquity.storeLoads.attempted, 3)
        expect(loads[2].durationMilliseconds == nil, "seen only by its outcome: no start, no duration")
        expectEqual(summary.ubiquity.storeLoads.succeeded, [.local: 1])
    }

    @Test func coreDataFailingAloneIsAnAttemptOfItsOwn() throws {
        let log = line("07.000", "CoreData: error: -addPersistentStoreWithType:SQLite configuration:(null) URL:file:///x/Journal.sqlite options:{} ... returned error \(error134080) with userInfo dictionary {}")
        let summary = try summarize([("f.log", log)])
        expectEqual(summary.ubiquity.storeLoadAttempts.map(\.outcome), [.failed])
        expectEqual(summary.ubiquity.storeLoadAttempts.first?.store, .unknown)
        expectEqual(summary.ubiquity.storeLoads.failed, [.unknown: 1])
    }

    @Test func aDurationAcrossHeaderStylesWithAndWithoutAYear() throws {
        // A device console line (no year) and an NSLog line (2014) in one input: the clock's
        // 1.5 s, not the 14 years between the fallback year and 2014.
        let log = [
            "Mar  2 09:14:07 Joes-iPad Journal[412] <Warning>: UbiquityStoreManager: Will load cloud store.",
            line("08.500", "UbiquityStoreManager: Successfully loaded cloud store."),
            "Mar  2 09:14:09 Joes-iPad Journal[412] <Warning>: UbiquityStoreManager: Will load local store.",
            "Mar  2 09:14:11 Joes-iPad Journal[412] <Warning>: UbiquityStoreManager: Successfully loaded local store.",
            line("11.000", "-[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:](808): CoreData: Ubiquity:  mobile~6F2C:JournalStore\nUsing local storage: 1"),
            "Mar  2 09:14:13 Joes-iPad Journal[412] <Warning>: -[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:](808): CoreData: Ubiquity:  mobile~6F2C:JournalStore\nUsing local storage: 0",
        ].joined(separator: "\n")
        let summary = try summarize([("g.log", log)])
        expectEqual(summary.ubiquity.storeLoadAttempts.map(\.durationMilliseconds), [1500, 2000])
        expectEqual(summary.ubiquity.localStorageSwitches.map(\.delayMilliseconds), [2000])
    }

    @Test func durationsRead() {
        expectEqual(SummaryText.duration(350), "350 ms")
        expectEqual(SummaryText.duration(1250), "1.3 s", "tenths, rounded half up")
        expectEqual(SummaryText.duration(44_800), "44.8 s")
    }
}
