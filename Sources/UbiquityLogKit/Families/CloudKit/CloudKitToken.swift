// The `CoreData+CloudKit:` token that marks a record of Core Data's CloudKit mirroring. The
// loose reading (`LooseMarkers`) finds it wherever a line puts it (it is among
// `Marker.spellings`); this finds it behind the marker of Core Data's error lines, which the
// stderr copy of an error record prints first. The logging method follows the token, where the
// ubiquity family prints it before its marker.
import CByteScan

enum CloudKitToken {
    static let token: StaticString = "CoreData+CloudKit:"
    /// How far into a line the token is looked for: past a header, a level word or two and a
    /// `[subsystem:category]`, never into a long message that merely quotes it.
    static let window = 256

    /// Where the token starts in the first line of `bytes` from `start`, within `window` bytes.
    ///
    /// Found by its `+`, which messages seldom hold, and checked in full only there: every
    /// header line whose message starts with no marker asks (most of the default mix), and a
    /// search by the token's first byte would stop at every `C` of `CoreData: CloudKit:` and
    /// of the message. The line's end is looked for only once a token is found, and not at all
    /// in a header's line (`oneLine`: the reader splits lines at line feeds). The `+` is found
    /// with memchr, which is vectorised already; a hand-written sixteen-byte scan does no
    /// better. The search is the header reader's
    /// (`cbytescan_cloudkit_token_find`), which takes the token after a header's marker in the
    /// same pass (`cbytescan_take_cloudkit_token`: the method after the token, as some logs
    /// print it, is read there too).
    static func find(in bytes: UnsafeRawBufferPointer, from start: Int, oneLine: Bool = false) -> Int? {
        guard let base = bytes.baseAddress, start >= 0 else { return nil }
        let found = cbytescan_cloudkit_token_find(base.assumingMemoryBound(to: UInt8.self), bytes.count, start, oneLine ? 1 : 0)
        return found >= 0 ? Int(found) : nil
    }
}
