// A failure's cause and sentences are worked out once for each message (`CloudKitTracker.Reading`):
// the story and the verdicts of a log whose failures repeat are what they are when each record
// is read afresh (records given without their rule keep no reading).
import Foundation
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct CloudKitReadingTests {
    static let logs = ["cloudkit/schema-not-deployed.log", "cloudkit/quota.log", "cloudkit/throttled-then-healthy.log",
                       "cloudkit/two-containers.log", "cloudkit/migrated-app.log", "cloudkit/healthy-xcode.log"]

    @Test func repeatedFailuresTellTheStoryTheyTellReadAfresh() throws {
        let text = try Self.logs.map { try String(contentsOfFile: Binary.fixture($0), encoding: .utf8) }.joined(separator: "\n")
        // Twice over: the second time every failure's message is one a reading is kept for,
        // in another state (requests open, successes before it).
        let classified = try classify(text + "\n" + text)
        var kept = SummaryBuilder()
        var afresh = SummaryBuilder()
        kept.beginInput("t.log")
        afresh.beginInput("t.log")
        var failures = 0
        for (record, classification) in classified {
            let item = ClassifiedRecord(record: record, classification: classification)
            if let tracked = kept.count(record, classification.event) {
                kept.track(record, classification.event, tracked, rule: classification.rule.map(ObjectIdentifier.init),
                           message: { Headline.of(item) })
            }
            afresh.add(record, classification.event, message: Headline.of(item))
            if case .message(_, let fields) = classification.event, fields.contains(where: { $0.name == "cause" }) { failures += 1 }
        }
        #expect(failures > 10)
        let one = kept.summary, other = afresh.summary
        let story = try #require(one.cloudKit), expected = try #require(other.cloudKit)
        #expect(story.causes == expected.causes)
        #expect(story.stores == expected.stores)
        #expect(story.requests == expected.requests)
        #expect(story.causes.contains { $0.reports > 1 })
        #expect(one.verdicts == other.verdicts)
        #expect(one.processes.map(\.evidence) == other.processes.map(\.evidence))
    }
}
