// The Xcode console prints each error record of the mirroring code twice: the os_log copy
// (`error: CoreData+CloudKit: …`) and the stderr copy (`CoreData: error: CoreData+CloudKit: …`),
// one after the other. The second becomes `cloudkit-echo`, so that the failure counts once; a
// copy after an echo is an original again (the same failure repeated).

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The echo check as the run's reviewer of each classified record.
final class CloudKitEchoReviewer: RecordReviewer {
    /// Used by the classifying stage alone, one record at a time: the run-time exclusivity
    /// check on each access is left out.
    @exclusivity(unchecked) private var echo = CloudKitEcho()
    let marker = Marker.cloudKit
    func review(_ record: Record, _ classification: inout Classification) { echo.check(record, &classification) }
    func interrupt() { echo.reset() }
}

struct CloudKitEcho {
    private enum Copy { case osLog, stderr }

    /// Which copy the record before was (nil when it was not an error record of the mirroring
    /// code), and its text after the token in `previousKey`: a copy into a buffer kept from
    /// record to record, where an array per record cost an allocation and a free, and keeping
    /// the record itself would keep its chunk of memory (see `RecordText`) past its batch.
    private var previous: Copy?
    private var previousKey = ByteBuffer()
    /// On a live pipe a record is shown when its writer pauses, then again (confirmed or
    /// amended) when more comes: the showings are one record, each held to the record before
    /// the first. `shownLine` is the first line of the preview just reviewed, and `saved…` the
    /// state it was held to.
    private var shownLine: Int?
    private var savedPrevious: Copy?
    private var savedKey = ByteBuffer()

    /// A new input: its first record echoes nothing.
    mutating func reset() {
        previous = nil
        shownLine = nil
    }

    /// Leaves `classification` as it stands, or makes it an echo of the record before when
    /// this record repeats it through the other copy. In place: most records are not
    /// CloudKit's, and a classification passed in and returned was copied twice for each.
    mutating func check(_ record: Record, _ classification: inout Classification) {
        let revision = record.revision
        if revision != .whole || shownLine != nil {
            if revision != .whole, shownLine == record.firstLine {
                // Shown before: held to what its first showing was held to, not to itself.
                previous = savedPrevious
                previousKey.removeAll(keepingRoomUpTo: 1 << 16)
                savedKey.withBytes { previousKey.append($0) }
            } else if revision.isPreview {
                savedPrevious = previous
                savedKey.removeAll(keepingRoomUpTo: 1 << 16)
                previousKey.withBytes { savedKey.append($0) }
            }
            shownLine = revision.isPreview ? record.firstLine : nil
        }
        guard record.marker == .cloudKit else {
            if previous != nil { previous = nil }
            return
        }
        record.text.withUnsafeBytes { bytes in
            guard let (copy, keyStart) = Self.copy(in: bytes) else {
                previous = nil
                return
            }
            let key = UnsafeRawBufferPointer(rebasing: bytes[keyStart...])
            // The copy printed second may have gathered lines that follow it (app lines without a
            // header): it echoes the first when it starts with all of the first's text.
            let echoes = previous.map { $0 != copy } == true && previousKey.withBytes { before in
                guard before.count <= key.count else { return false }
                guard let start = key.baseAddress, let earlier = before.baseAddress else { return before.isEmpty }
                return memcmp(start, earlier, before.count) == 0
            }
            if echoes {
                // An echo is the copy right after its original, and echoes nothing itself: the
                // next copy, however alike, is a failure of its own (one repeated).
                previous = nil
                classification = Classification(event: .message(.cloudKitEcho, []), rule: nil, matchStart: classification.matchStart)
                return
            }
            // An original: the record the next is held to.
            previous = copy
            previousKey.removeAll(keepingRoomUpTo: 1 << 16)
            previousKey.append(key)
        }
    }

    /// Which copy an error record is, and where its text after the token (the same in both
    /// copies) starts.
    private static func copy(in bytes: UnsafeRawBufferPointer) -> (Copy, Int)? {
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
        return (copy, token + CloudKitToken.token.utf8CodeUnitCount)
    }

    /// Compared with memcmp, the suffix a static string: zipped and compared byte by byte,
    /// with the suffix's array retained, it would be a real share of a mirroring record's work.
    private static func endsWith(_ bytes: UnsafeRawBufferPointer, _ suffix: StaticString) -> Bool {
        let count = suffix.utf8CodeUnitCount
        guard bytes.count >= count, let base = bytes.baseAddress else { return count == 0 }
        return memcmp(base + (bytes.count - count), suffix.utf8Start, count) == 0
    }

    private static let stderrCopy: StaticString = "CoreData: error: "
    private static let osLogCopy: StaticString = "error: "
}
