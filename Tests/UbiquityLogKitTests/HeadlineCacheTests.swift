// The summary's headlines are made once for each message (`HeadlineCache`): what it gives
// back is what `Headline.of` says of the record itself, for records that repeat a message
// under other headers, records of one rule with other messages, and records no rule knows.
import Foundation
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct HeadlineCacheTests {
    static let ios7 = "2014-03-02 09:14:07.318 Journal[412:60b] "

    /// Records of one rule whose messages differ only after the words the rule matched, and
    /// the same messages again under other times, pids and processes.
    static let repeats = [
        "-[_PFUbiquityRecordImportOperation main](402): CoreData: Ubiquity:  Error loading comparison metadata for transaction log: <PFUbiquityTransactionLog: 0x1d5e3f20>",
        "-[_PFUbiquityRecordImportOperation main](402): CoreData: Ubiquity:  Error loading comparison metadata for transaction log: <PFUbiquityTransactionLog: 0x1d5e3f28>",
        "UbiquityStoreManager: Failed to load cloud store.",
        "UbiquityStoreManager: Failed to load local store.",
        "-[PFUbiquityWidget frobnicate:](80): CoreData: Ubiquity:  <PFUbiquityWidget: 0x15d5c000> frobnicated 2 sprockets",
    ]

    static func log() -> String {
        var lines: [String] = []
        for (index, header) in [ios7, "2014-03-02 09:15:00.001 Journal[413:60b] ", "2014-03-02 09:16:30.500 Other[7:1a] "].enumerated() {
            for message in repeats.shuffled() { lines.append(header + message) }
            lines.append(header + "UbiquityStoreManager: Failed to load cloud store. (\(index))")
        }
        for name in ["example.log", "device-console.log", "cloudkit/schema-not-deployed.log", "cloudkit/quota.log"] {
            if let text = try? String(contentsOfFile: Binary.fixture(name), encoding: .utf8) { lines.append(text) }
        }
        return lines.joined(separator: "\n")
    }

    @Test func aRepeatedMessageHasTheHeadlineItsRecordWouldHave() throws {
        let classified = try classify(Self.log())
        var cache = HeadlineCache()
        var repeated = 0
        var seen: Set<String> = []
        // Twice over: the second time every recognised message is one the cache holds.
        for (record, classification) in classified + classified {
            let item = ClassifiedRecord(record: record, classification: classification)
            let body = String(decoding: record.body.withUnsafeBytes { Array($0) }, as: UTF8.self)
            if !seen.insert(body).inserted { repeated += 1 }
            #expect(cache.headline(of: item) == Headline.of(item), "line \(record.firstLine): \(body.prefix(80))")
        }
        #expect(repeated > classified.count)
    }
}
