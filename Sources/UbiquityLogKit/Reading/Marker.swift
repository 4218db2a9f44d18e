// Which logging code printed a record: the marker its message starts with.
import CByteScan
import Synchronization

/// Which logging code printed a record, told by the marker its message starts with (or that
/// a line holds near its start). Each family declares its markers and their spellings
/// (`Family.markers`); a marker the C header reader knows has that reader's code as its
/// ordinal, any other one a number of its own.
public struct Marker: Hashable, Sendable, CustomStringConvertible {
    /// Small and dense: an index for tables by marker.
    let ordinal: UInt8

    /// A marker the C readers name by `code` (`CBYTESCAN_UBIQUITY`, …).
    public init(readerCode code: Int32, name: String) {
        ordinal = UInt8(truncatingIfNeeded: code)
        Marker.names.withLock { $0[ordinal] = name }
    }

    /// A marker the C readers do not know: its spellings are found by the loose reading alone.
    public init(name: String) {
        ordinal = Marker.names.withLock { names in
            let ordinal = UInt8((names.keys.max() ?? 0) >= Marker.firstOwn ? (names.keys.max() ?? 0) + 1 : Marker.firstOwn)
            names[ordinal] = name
            return ordinal
        }
    }

    /// The marker a C reader's `code` names; nil for none.
    @inline(__always)
    init?(code: Int32) {
        guard code != Int32(CBYTESCAN_NO_MARKER) else { return nil }
        ordinal = UInt8(truncatingIfNeeded: code)
    }

    /// Markers the C readers do not know are numbered from here on.
    private static let firstOwn: UInt8 = 32
    private static let names = Mutex<[UInt8: String]>([:])

    public var description: String { Marker.names.withLock { $0[ordinal] } ?? "marker \(ordinal)" }
}
