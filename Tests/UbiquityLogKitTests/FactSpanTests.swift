// A rule's named groups are facts kept as slices of the record's text (`FieldValue.span`),
// made into text only where something reads them: what they say, and how the timeline and
// JSON Lines show them, is what a String of the same bytes said and showed.
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct FactSpanTests {
    let rule = Rule.message("span", .ubiquity, .storeSetupFinished, #"Using (?<store>\S+) at (?<path>[^\n]+)"#, samples: [])

    @Test func aGroupIsTheRecordsBytesReadAsText() throws {
        let classifier = Classifier(catalog: try Catalog(rules: [rule]))
        let record = try require(assemble("CoreData: Ubiquity:  Using Café.sqlite at /tmp/Ünïcode dir").first)
        let fields = classifier.classify(record).event.fields
        let store = try require(fields.first { $0.name == "store" }?.value)
        guard case .span(let bytes) = store else {
            Issue.record("a group's fact is a slice of the record, not a String of its own: \(store)")
            return
        }
        expect(bytes.chunk === record.text.chunk, "the slice shows the record's own bytes")
        expectEqual(store.text, "Café.sqlite")
        expectEqual(store, .string("Café.sqlite"), "equal to the same text as a String")
        expect(store != .string("Café"))
        expectEqual(fields.first { $0.name == "path" }?.value.text, "/tmp/Ünïcode dir")
    }

    @Test func bytesThatAreNotUTF8ReadAndPrintAsAStringOfThemDid() {
        let bytes: [UInt8] = Array("name ".utf8) + [0xFF, 0xC3] + Array(" \"quoted\"\n".utf8)
        let span = FieldValue.span(RecordText(bytes))
        let string = FieldValue.string(ByteText.string(bytes))
        expectEqual(span.text, string.text)
        expectEqual(span.text?.contains("\\xFF"), true)
        expectEqual(JSON.value(span), JSON.value(string))
        expectEqual(JSON.value(.span(RecordText(Array("plain \"text\"".utf8)))), JSON.value(.string("plain \"text\"")))
    }

    @Test func aValueIsTextComparedOnItsBytes() {
        expect(FieldValue.span(RecordText(Array("1".utf8))).isText("1"))
        expect(!FieldValue.span(RecordText(Array("10".utf8))).isText("1"))
        expect(FieldValue.string("YES").isText("YES"))
        expect(!FieldValue.int(1).isText("1"))
    }
}
