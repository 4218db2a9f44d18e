/// How an input's lines become records.
public enum InputFormat: String, Sendable, CaseIterable {
    /// Decided per input from its first line: NDJSON when it is a JSON object with an
    /// `eventMessage`, otherwise text in any header style.
    case auto
    /// Xcode / NSLog headers (and loggers' own timestamps), plus headerless lines.
    case nslog
    /// Device console / syslog headers, plus headerless lines.
    case syslog
    /// macOS `log show` default and syslog styles, plus headerless lines.
    case logshow
    /// macOS `log show --style ndjson`.
    case ndjson

    /// The header styles that start a record in this format (nil: all of them).
    var headerStyles: Set<HeaderStyle>? {
        switch self {
        case .auto, .ndjson: nil
        case .nslog: [.nslog, .loggerTimestamp, .bare]
        case .syslog: [.syslog, .bare]
        case .logshow: [.logShow, .logShowSyslog, .bare]
        }
    }

    /// `auto`'s choice for an input that starts with `line`.
    static func detect(firstLine line: UnsafeRawBufferPointer) -> InputFormat {
        guard let object = FlatJSON.object(line), object["eventMessage"] != nil else { return .auto }
        return .ndjson
    }

    /// `auto`'s choice for an input whose first line is `line`: one the line reader cut is
    /// NDJSON when what it kept starts an event object (see `FlatJSON.cutObject`).
    static func detect(firstLine line: Line) -> InputFormat {
        guard line.isTruncated else { return detect(firstLine: line.bytes) }
        guard let object = FlatJSON.cutObject(line.bytes, tail: line.tail), object["eventMessage"] != nil else { return .auto }
        return .ndjson
    }
}
