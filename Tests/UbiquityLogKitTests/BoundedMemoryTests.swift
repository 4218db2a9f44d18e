// What is kept of a record is bounded whatever the record holds: attributes of one object in
// an export dump, templates and examples of `--unhandled`. What is left out is counted.
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct BoundedMemoryTests {
    @Test func anObjectKeepsAtMostItsCapOfAttributesAndCountsTheRest() {
        let text = String(repeating: "a=b;", count: ObjectDump.maxAttributes + 2_500)
        let attributes = ObjectDump.attributes(from: text)
        expectEqual(attributes.count, ObjectDump.maxAttributes + 1)
        expectEqual(attributes.last, ObjectChange.Attribute(name: "…", value: "2500 more attributes not kept"))
        let few = ObjectDump.attributes(from: "title = Walk; body = x;")
        expectEqual(few.map(\.name), ["title", "body"], "an ordinary object is untouched")
    }

    @Test func anObjectKeepsAtMostItsCapOfAttributeBytes() throws {
        let line = "    " + String(repeating: "a=b;", count: 50)
        let lines = (ObjectDump.maxAttributeBytes / 200) + 100
        let text = """
            2014-03-02 09:14:31.518 Journal[412:3d07] -[_PFUbiquityRecordsExporter createDictionaryForObjectsInSaveNotification:forTransactionOfType:withExportContext:andSaveSnapshot:](293): CoreData: Ubiquity:  <_PFUbiquityRecordsExporter: 0x15d6a0f0>
             exporting inserted objects: {(
                <Entry: 0x15e4c9d0> (entity: Entry; id: 0x15e4a1b0 <x-coredata://8F3A/Entry/p12> ; data: {
            """ + "\n" + Array(repeating: line, count: lines).joined(separator: "\n") + "\n})\n)}"
        let record = try require(assemble(text, limits: RecordAssembler.Limits(maxLines: 20_000, maxBytes: 4 << 20)).first)
        let changes = record.body.withUnsafeBytes { ObjectDump.changes(in: $0) }
        let attributes = try require(changes.first?.attributes)
        expectEqual(changes.count, 1)
        expectEqual(attributes.count, ObjectDump.maxAttributes + 2)
        expectEqual(attributes.last?.name, "…")
        expectEqual(attributes.last?.value.hasSuffix("more bytes of attributes not kept"), true)
    }

    @Test func unhandledKeepsAtMostItsTemplatesAndCutsLongMessages() throws {
        let output = CapturedOutput()
        let reporter = UnhandledReporter(output: output.writer, limits: .init(templates: 2, messageBytes: 40))
        let words = ["alpha", "bravo", "charlie", "delta"]
        var log = words.map { "2014-03-02 09:14:07.318 Journal[412:60b] CoreData: Ubiquity:  Frobnicated \($0) widgets." }
        log.append("2014-03-02 09:14:07.318 Journal[412:60b] CoreData: Ubiquity:  Frobnicated alpha widgets.")
        log.append("2014-03-02 09:14:07.318 Journal[412:60b] CoreData: Ubiquity:  " + String(repeating: "é", count: 100))
        let classifier = Classifier(catalog: try Catalog.standard())
        for record in try assemble(log.joined(separator: "\n")) {
            reporter.report(ClassifiedRecord(record: record, classification: classifier.classify(record)))
        }
        var summary = RunSummary()
        summary.unhandled = 6
        summary.syncRecords = 6
        reporter.finish(summary)
        let text = output.text
        expect(text.contains("2×  Frobnicated alpha widgets."))
        expect(text.contains("1×  Frobnicated bravo widgets."))
        expect(!text.contains("charlie"))
        expect(text.hasSuffix("3 more records in templates beyond the first 2, not grouped (memory is bounded)\n"))
        expectEqual(UnhandledTemplates.capped(String(repeating: "é", count: 100), bytes: 41), String(repeating: "é", count: 20) + "…", "cut on a character's boundary")
    }
}
