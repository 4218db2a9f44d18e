import Foundation
import Testing
import TestSupport
@testable import UbiquityLogKit

/// Every message shape of the CloudKit reference table (`Tests/Reference/cloudkit/formats.tsv`,
/// 109 rows) has a record of ours in `CloudKitFormats.tsv`, in one of the envelopes real logs
/// use, and the catalogue classifies it as the kind that file names: every shape is recognised.
@Suite struct CloudKitFormatsTests {
    struct Entry: Sendable {
        var row: Int
        var kind: String
        var record: String
    }

    static let entries: [Entry] = {
        let path = Binary.packageRoot.appendingPathComponent("Tests/UbiquityLogKitTests/CloudKitFormats.tsv").path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line -> Entry? in
            guard !line.hasPrefix("#") else { return nil }
            let columns = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard columns.count == 3, let row = Int(columns[0]) else { return nil }
            return Entry(row: row, kind: String(columns[1]), record: unescape(String(columns[2])))
        }
    }()

    static func unescape(_ text: String) -> String {
        var result = ""
        var escaped = false
        for character in text {
            if escaped {
                result.append(character == "n" ? "\n" : character == "t" ? "\t" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    @Test func everyRowOfTheReferenceHasARecord() throws {
        let table = try String(contentsOf: ReferenceTables.directory.appendingPathComponent("cloudkit/formats.tsv"), encoding: .utf8)
        let rows = table.split(separator: "\n").dropFirst().filter { !$0.isEmpty }
        expectEqual(rows.count, 109)
        expectEqual(Set(Self.entries.map(\.row)), Set(1...rows.count))
    }

    @Test func everyRecordIsOneRecordOfItsKind() throws {
        expectEqual(Self.entries.count, 109)
        let catalog = try Catalog.standard()
        let kinds = Set(catalog.kinds.map(\.id))
        let classifier = Classifier(catalog: catalog)
        var failures: [String] = []
        for entry in Self.entries {
            expect(kinds.contains(entry.kind), "row \(entry.row): \(entry.kind) is not a kind")
            let records = try assemble(entry.record)
            guard records.count == 1 else {
                failures.append("row \(entry.row): \(records.count) records")
                continue
            }
            let event = classifier.classify(records[0]).event
            if event.kind.id != entry.kind { failures.append("row \(entry.row): \(event.kind.id), expected \(entry.kind)") }
            // A mirroring record is marked as one, whatever its envelope.
            if entry.record.contains("CoreData+CloudKit:"), records[0].marker != .cloudKit { failures.append("row \(entry.row): no CloudKit marker") }
        }
        expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test func theErrorsInsideCarryTheirFacts() throws {
        let classifier = Classifier(catalog: try Catalog.standard())
        func fields(_ row: Int) throws -> [Field] {
            let entry = try require(Self.entries.first { $0.row == row })
            return classifier.classify(try require(assemble(entry.record).first)).event.fields
        }
        let omitted = try fields(83)
        expect(omitted.contains(Field("omittedBatchErrors", .int(9))))
        expect(omitted.contains(Field("field", .string("CD_barcode"))))
        expect(omitted.contains(Field("recordType", .string("CD_Item"))))
        try expect(fields(87).contains(Field("retryAfter", .string("342.0"))))
        try expect(fields(90).contains(Field("zone", .string("Household"))))
        try expect(fields(42).contains(Field("recordType", .string("CD_Tag"))))
        let finished = try fields(27)
        expect(finished.contains(Field("success", .bool(true))) && finished.contains(Field("madeChanges", .bool(true))))
        expect(finished.contains(Field("requestType", .string("import"))))
    }
}
