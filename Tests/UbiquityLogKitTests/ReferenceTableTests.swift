import Foundation
import Testing
import TestSupport
@testable import UbiquityLogKit

/// Every message format Core Data's ubiquity code and UbiquityStoreManager can print (the
/// reference tables in `Tests/Reference`), filled with realistic values (words, UUIDs and URLs
/// where the code puts them, object descriptions only where a message starts with one), in
/// every header style of `ReferenceStyle` and four value styles (words, UUIDs, paths, peer ids): each is one record, classified
/// as the kind `ReferenceKinds.tsv` names for its row, never as unhandled or an app line.
@Suite struct ReferenceTableTests {
    @Test func everyRowIsRecognisedAsItsKind() throws {
        let rows = try ReferenceTables.load()
        expect(rows.count > 700, "the three tables were read")
        let expected = try ReferenceTables.expectedKinds()
        let classifier = Classifier(catalog: try Catalog.standard())
        var produced: [String] = []
        var failures: [String] = []
        for row in rows {
            let wanted = expected[row.key]
            if wanted == nil { failures.append("no expected kind for \(row.key)") }
            for style in row.styles {
                for variant in 0..<FormatFiller.variants {
                    let text = row.record(style, filler: FormatFiller(variant: variant))
                    let records = try assemble(text)
                    guard records.count == 1 else {
                        failures.append("\(records.count) records, style \(style): \(text)")
                        continue
                    }
                    let kind = classifier.classify(records[0]).event.kind.id
                    if style == .xcode && variant == 0 { produced.append("\(row.key)\t\(kind)") }
                    // A row whose kind depends on its values names each kind it may be (`a|b`).
                    if !(wanted?.split(separator: "|").contains(Substring(kind)) ?? false) {
                        failures.append("\(row.key) style \(style) variant \(variant): \(kind), expected \(wanted ?? "?")\n\(text)")
                    }
                }
            }
        }
        // To review the catalogue against the tables: PARSELOGS_WRITE_REFERENCE_KINDS=FILE.
        if let path = ProcessInfo.processInfo.environment["PARSELOGS_WRITE_REFERENCE_KINDS"] {
            try (produced.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            try (failures.joined(separator: "\n\n") + "\n").write(toFile: path + ".failures", atomically: true, encoding: .utf8)
        }
        expect(failures.isEmpty, "\(failures.count) failures; first: \(failures.prefix(5).joined(separator: "\n\n"))")
    }
}
