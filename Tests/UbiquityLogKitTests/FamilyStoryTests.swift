import Testing
import TestSupport
@testable import UbiquityLogKit

/// The summary is a list of family stories: each family whose records the run holds tells its
/// own, with its record counts, and a family with no records tells nothing.
@Suite struct FamilyStoryTests {
    static let cloudKitOnly = """
    2023-09-21 16:04:10.001 Recipes[2210:8a1] CoreData: debug: CoreData+CloudKit: -[NSCloudKitMirroringDelegate _performSetupRequest:]_block_invoke(1192): <NSCloudKitMirroringDelegate: 0x1>: Successfully set up CloudKit integration for store: <NSSQLCore: 0x2> (URL: file:///a/Recipes.sqlite)
    2023-09-21 16:04:10.500 Recipes[2210:8a1] App started
    """
    static let ubiquityOnly = """
    2014-03-02 09:14:05.121 Journal[412:60b] UbiquityStoreManager: Will load cloud store.
    2014-03-02 09:14:05.400 Journal[412:60b] UbiquityStoreManager: Successfully loaded cloud store.
    """

    @Test func aRunTellsTheStoriesOfTheFamiliesItHolds() throws {
        let cloudKit = try summarize([("ck.log", Self.cloudKitOnly)])
        expectEqual(cloudKit.families.map(\.id), [.cloudKit])
        expectEqual(cloudKit.families.first?.records, 1)
        expectEqual(cloudKit.cloudKit?.setupsSucceeded, 1)
        let ubiquity = try summarize([("u.log", Self.ubiquityOnly)])
        expectEqual(ubiquity.families.map(\.id), [.ubiquity])
        expectEqual(ubiquity.families.first?.records, 2)
        expect(ubiquity.cloudKit == nil)
        let both = try summarize([("u.log", Self.ubiquityOnly), ("ck.log", Self.cloudKitOnly)])
        expectEqual(both.families.map(\.id), [.ubiquity, .cloudKit], "in the catalogue's order")
        expectEqual(both.families.map(\.records), [2, 1])
        try expect(summarize([("app.log", "2014-03-02 09:14:05.121 Journal[412:60b] hello")]).families.isEmpty)
    }

    @Test func aCloudKitOnlyRunPrintsNoUbiquityRows() throws {
        let labels = SummaryText.rows(try summarize([("ck.log", Self.cloudKitOnly)])).map(\.label)
        expect(labels.contains("cloudkit"))
        for ubiquityRow in ["store loads", "transactions", "object changes", "import failures", "corruption"] {
            expect(!labels.contains(ubiquityRow), "\(labels)")
        }
        let ubiquityLabels = SummaryText.rows(try summarize([("u.log", Self.ubiquityOnly)])).map(\.label)
        expect(ubiquityLabels.contains("store loads"))
        expect(!ubiquityLabels.contains("cloudkit"))
    }

    @Test func theJSONSummaryHasAMemberPerFamilyWithItsCounts() throws {
        let text = JSONSummary.text(try summarize([("u.log", Self.ubiquityOnly), ("ck.log", Self.cloudKitOnly)]))
        expect(text.contains(#""families":{"ubiquity":{"records":2,"unhandled":0,"storeLoads":"#))
        expect(text.contains(#""cloudkit":{"records":1,"unhandled":0,"#))
        expect(text.contains(#""syncRecords":3"#))
    }
}
