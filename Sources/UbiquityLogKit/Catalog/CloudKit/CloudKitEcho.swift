// The Xcode console prints each error record of the mirroring code twice: the os_log copy
// (`error: CoreData+CloudKit: …`) and the stderr copy (`CoreData: error: CoreData+CloudKit: …`),
// one after the other. The second becomes `cloudkit-echo`, so that the failure counts once.

struct CloudKitEcho {
    private enum Copy { case osLog, stderr }

    private var previous: (copy: Copy, key: [UInt8])?

    /// A new input: its first record echoes nothing.
    mutating func reset() { previous = nil }

    /// Leaves `classification` as it stands, or makes it an echo of the record before when
    /// this record repeats it through the other copy. In place: most records are not
    /// CloudKit's, and a classification passed in and returned was copied twice for each.
    mutating func check(_ record: Record, _ classification: inout Classification) {
        guard record.marker == .cloudKit, let (copy, key) = Self.copy(of: record) else {
            if previous != nil { previous = nil }
            return
        }
        defer { previous = (copy, key) }
        // The copy printed second may have gathered lines that follow it (app lines without a
        // header): it echoes the first when it starts with all of the first's text.
        guard let previous, previous.copy != copy, key.starts(with: previous.key) else { return }
        self.previous = nil
        classification = Classification(event: .message(.cloudKitEcho, []), rule: nil, matchStart: classification.matchStart)
    }

    /// Which copy an error record is, and its text after the token (the same in both copies).
    private static func copy(of record: Record) -> (Copy, [UInt8])? {
        record.text.withUnsafeBytes { bytes -> (Copy, [UInt8])? in
            guard let token = CloudKitToken.find(in: bytes, from: 0) else { return nil }
            let before = UnsafeRawBufferPointer(rebasing: bytes[..<token])
            let copy: Copy
            if endsWith(before, Self.stderrCopy) {
                copy = .stderr
            } else if endsWith(before, Self.osLogCopy) {
                copy = .osLog
            } else {
                return nil
            }
            return (copy, Array(bytes[(token + CloudKitToken.token.utf8CodeUnitCount)...]))
        }
    }

    private static func endsWith(_ bytes: UnsafeRawBufferPointer, _ suffix: [UInt8]) -> Bool {
        bytes.count >= suffix.count && zip(bytes[(bytes.count - suffix.count)...], suffix).allSatisfy { $0 == $1 }
    }

    private static let stderrCopy = Array("CoreData: error: ".utf8)
    private static let osLogCopy = Array("error: ".utf8)
}
