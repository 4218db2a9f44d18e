import Testing
import TestSupport
@testable import UbiquityLogKit

/// A message is the same record in whatever envelope it reaches us: every record of
/// `CloudKitFormats.tsv` (one per shape of the CloudKit reference), its message taken out of the
/// envelope the table gives it and put in each envelope real captures use (Xcode's console,
/// `log show`, its compact style, a device console, a paste of the message with Core Data's
/// prefix or of the message alone), is classified as the kind the table names.
@Suite struct CloudKitEnvelopeTests {
    /// The headers the table's records carry, each up to where its message starts.
    /// (Regex is not Sendable; these are only read.)
    nonisolated(unsafe) static let headers: [Regex<AnyRegexOutput>] = [
        // `log show`: thread, type, activity, pid, TTL and the process.
        #"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d[.:]\d+(?:[-+]\d{4})?\s+0x[0-9a-f]+\s+\w+\s+0x[0-9a-f]+\s+\d+\s+\d+\s+[^:]+:\s"#,
        // Its compact style: a level, then the process.
        #"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d[.:]\d+(?:[-+]\d{4})?\s+(?:E|Df|Db|I|F|Fa|A)\s+\S+\[\d+:[0-9a-f]+\]\s"#,
        // Xcode's console.
        #"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d[.:]\d+(?:[-+]\d{4})?\s+\S+\[\d+:[0-9a-f]+\]\s"#,
        // A device console: the device, then the process.
        #"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d[.:]\d+(?:[-+]\d{4})?\s+\S+ \S+\[\d+\](?: <\w+>)?:\s"#,
        // Console.app's copy: type, time and process, by tabs.
        #"^\w+\t\d\d:\d\d:\d\d\.\d+[-+]\d{4}\t\S+\t"#,
    ].map { try! Regex($0) }

    /// A record's message without its envelope, and whether it is a mirroring record (from its
    /// `CoreData+CloudKit:` on, the level word and Core Data's prefix left out).
    static func message(of record: String) -> (text: Substring, mirroring: Bool) {
        var body = record[...]
        for header in headers {
            if let found = try? header.prefixMatch(in: record) { body = record[found.range.upperBound...]; break }
        }
        if let marker = body.firstRange(of: "CoreData+CloudKit:") { return (body[marker.lowerBound...], true) }
        // `log show`'s subsystem and category: `(CloudKit) [com.apple.cloudkit:OP] `.
        if body.hasPrefix("("), let close = body.firstRange(of: ") ["), let end = body[close.upperBound...].firstRange(of: "] ") {
            body = body[end.upperBound...]
        }
        return (body, false)
    }

    static let envelopes: [(name: String, wrap: @Sendable (Substring, Bool) -> String?)] = [
        ("Xcode", { "2023-09-21 16:04:11.027384-0700 Pantry[5120:1f3a09] " + ($1 ? "CoreData: CloudKit: " : "") + $0 }),
        ("log show", { "2023-09-21 16:04:08.004115-0700 0x1e7        Default     0x0                  5120   0    Pantry: "
                       + ($1 ? "(CoreData) [com.apple.coredata:CloudKit] " : "") + $0 }),
        ("compact", { "2023-09-21 16:04:11.027 Df Pantry[5120:1f3a09] " + ($1 ? "[com.apple.coredata:CloudKit] " : "") + $0 }),
        ("device console", { "2023-09-21 16:04:11.027384-0700  Pantrys-iPad Pantry[5120]: " + ($1 ? "CoreData: CloudKit: " : "") + $0 }),
        ("pasted with Core Data's prefix", { $1 ? "CoreData: CloudKit: " + $0 : nil }),
        ("pasted alone", { text, _ in String(text) }),
    ]

    @Test(arguments: envelopes.indices)
    func everyShapeIsItsKindInEveryEnvelope(_ index: Int) throws {
        let envelope = Self.envelopes[index]
        let classifier = Classifier(catalog: try Catalog.standard())
        var wrong: [String] = []
        expectEqual(CloudKitFormatsTests.entries.count, 109)
        for entry in CloudKitFormatsTests.entries {
            let (text, mirroring) = Self.message(of: entry.record)
            guard let record = envelope.wrap(text, mirroring) else { continue }
            let kinds = try assemble(record, ownLines: classifier).map { classifier.classify($0).event.kind.id }
            if kinds != [entry.kind] { wrong.append("row \(entry.row): \(kinds), expected \(entry.kind): \(record.prefix(140))") }
        }
        expect(wrong.isEmpty, "\(envelope.name):\n\(wrong.joined(separator: "\n"))")
    }

    /// Apple's technotes print one mirroring method as `…]block_invoke(1943)`, without the
    /// underscore compilers put there: it is read as a method all the same, with a header or
    /// without one.
    @Test func aBlockWithoutItsUnderscoreIsAMethod() throws {
        let message = "-[NSCloudKitMirroringDelegate recoverFromPartialError:forStore:inMonitor:]block_invoke(1943): <NSCloudKitMirroringDelegate: 0x600003d1c000>: Found unknown error as part of a partial failure: <CKError 0x600000c4f2a0: \"Asset File Not Found\" (16/3002)>"
        for record in ["CoreData+CloudKit: " + message, "error: CoreData+CloudKit: " + message,
                       "2023-09-21 16:04:11.027384-0700 Pantry[5120:1f3a09] CoreData+CloudKit: " + message] {
            let classified = try require(classify(record).first)
            expectEqual(classified.classification.event.kind, .cloudKitUnknownPartialError, "\(record)")
            expectEqual(classified.record.string(.method), "-[NSCloudKitMirroringDelegate recoverFromPartialError:forStore:inMonitor:]block_invoke", "\(record)")
        }
    }
}
