// A record: one logging call, as a header line plus the continuation lines after it.

/// The header styles a record can start with.
public enum HeaderStyle: String, Sendable, CaseIterable {
    /// Xcode console / NSLog: `2014-03-02 09:14:07.318 Journal[412:60b] `.
    case nslog
    /// Device console / syslog: `Mar  2 09:14:07 iPad Journal[412] <Warning>: `.
    case syslog
    /// macOS `log show` default style: `2016-09-30 10:01:02.123456+0200 0x2f1c  Default  0x0  412  Journal: `.
    case logShow = "logshow"
    /// macOS `log show --style syslog`: `2016-09-30 10:01:02.123456+0200  localhost Journal[412]: `.
    case logShowSyslog = "logshow-syslog"
    /// A logger's own timestamp: `2014/03/02 09:14:07:318 `.
    case loggerTimestamp = "logger"
    /// No header: the line itself starts with a logging method or a marker.
    case bare
}

/// Which logging code printed a record, told by the marker at the start of its message.
public enum Marker: String, Sendable {
    /// `CoreData: Ubiquity:` — Core Data's iCloud code.
    case ubiquity
    /// `CoreData: error:` — Core Data's own error lines.
    case coreDataError = "coredata-error"
    /// `UbiquityStoreManager:` — the open-source store manager.
    case storeManager = "store-manager"
}

public struct Header: Sendable, Equatable {
    public var style: HeaderStyle
    public var time: LogTime?
    public var process: String?
    public var pid: Int?
    public var thread: String?
    public var device: String?
    public var level: String?
    /// The logging method before the marker, e.g. `-[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:]`.
    public var method: String?
    /// The source line printed after the method, in parentheses.
    public var sourceLine: Int?
    public var marker: Marker?

    public init(style: HeaderStyle, time: LogTime? = nil, process: String? = nil, pid: Int? = nil, thread: String? = nil,
                device: String? = nil, level: String? = nil, method: String? = nil, sourceLine: Int? = nil, marker: Marker? = nil) {
        self.style = style
        self.time = time
        self.process = process
        self.pid = pid
        self.thread = thread
        self.device = device
        self.level = level
        self.method = method
        self.sourceLine = sourceLine
        self.marker = marker
    }
}

/// A class: a record passes from the reader to the classifier, the summary and the reporters,
/// and a copy of a struct of arrays and strings cost a retain and a release of each.
public final class Record: Sendable {
    /// The name of the input (a path, or `<stdin>`).
    public let input: String
    /// Number of the record's first line in its input, from 1.
    public let firstLine: Int
    /// How many input lines the record spans (at least 1), including any dropped by the cap.
    public let lineCount: Int
    /// The record's lines joined by LF, line ends removed; bytes as read.
    public let text: [UInt8]
    public let header: Header?
    /// Offset in `text` where the message starts (after the header, method and marker).
    public let bodyStart: Int
    /// Some of the record was not kept: too many lines or bytes, or an overlong line.
    public let isTruncated: Bool

    public init(input: String, firstLine: Int, lineCount: Int, text: [UInt8], header: Header?, bodyStart: Int, isTruncated: Bool = false) {
        self.input = input
        self.firstLine = firstLine
        self.lineCount = lineCount
        self.text = text
        self.header = header
        self.bodyStart = bodyStart
        self.isTruncated = isTruncated
    }

    public var marker: Marker? { header?.marker }

    /// The message: everything after the header, method and marker.
    public var body: ArraySlice<UInt8> { text[min(bodyStart, text.count)...] }

    /// The first line of the message, for one-line displays.
    public var firstBodyLine: ArraySlice<UInt8> {
        let body = self.body
        if let newline = body.firstIndex(of: 0x0A) { return body[..<newline] }
        return body
    }

    /// Whether the message goes on past its first line.
    public var hasMoreLines: Bool { body.contains(0x0A) }
}
