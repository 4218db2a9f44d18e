import CByteScan

/// What follows a header, as the loose reading (`LooseMarkers.afterHeader`) and NDJSON
/// messages (`parsePrefix`) take it: the logging method and its source line, the marker, and
/// where the message starts.
struct MessagePrefix {
    var method: Range<Int>?
    var sourceLine: Range<Int>?
    var marker: Marker?
    var end: Int

    init(_ read: cbytescan_prefix) {
        method = TextPlace(read.method).range
        sourceLine = TextPlace(read.source_line).range
        marker = Marker(code: read.marker)
        end = Int(read.end)
    }
}
