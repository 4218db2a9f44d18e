/// An NSError as printed in a log: `Error Domain=NSCocoaErrorDomain Code=134302 "…" UserInfo=…{reason=…}`.
public struct ErrorInfo: Sendable, Equatable {
    public var domain: String
    public var code: Int
    /// The quoted localized description, when printed.
    public var description: String?
    /// The `reason` entry of the user info, when printed.
    public var reason: String?
    /// The file the error is about (`NSFilePath`, `NSURL`), when printed.
    public var filePath: String?
    /// The error under this one (`NSUnderlyingError`), when printed: at most one.
    public var underlying: [ErrorInfo]

    public init(domain: String, code: Int, description: String? = nil, reason: String? = nil,
                filePath: String? = nil, underlying: [ErrorInfo] = []) {
        self.domain = domain
        self.code = code
        self.description = description
        self.reason = reason
        self.filePath = filePath
        self.underlying = underlying
    }

    /// The error a field list holds (as `FieldList.add(_: ErrorInfo?)` writes it), or nil
    /// when the value is not such an object (a rule's plain `error` text).
    init?(fieldValue: FieldValue) {
        guard case .object(let parts) = fieldValue else { return nil }
        var domain: String?
        var code: Int?
        var info = ErrorInfo(domain: "", code: 0)
        for part in parts {
            switch (part.name, part.value) {
            case ("domain", _): domain = part.value.text
            case ("code", .int(let number)): code = number
            case ("description", _): info.description = part.value.text
            case ("reason", _): info.reason = part.value.text
            case ("filePath", _): info.filePath = part.value.text
            case ("underlying", let value): if let inner = ErrorInfo(fieldValue: value) { info.underlying = [inner] }
            default: break
            }
        }
        guard let domain, let code else { return nil }
        info.domain = domain
        info.code = code
        self = info
    }

    /// The root cause in one line, whole: `NSCocoaErrorDomain 134302: reason; file: /path;
    /// underlying: NSPOSIXErrorDomain 2: No such file or directory`.
    public var oneLine: String {
        var text = ""
        appendOneLine(to: &text)
        return text
    }

    /// `oneLine` appended to `text`, leaving out the file when the error above already named
    /// it. Appended piece by piece into the one String: interpolated, each error's line would
    /// be a String of its own, made and copied (the timeline's line of every error has one).
    func appendOneLine(to text: inout String, besides namedFile: String? = nil) {
        text += domain
        text += " "
        text += String(code)
        if let detail = reason ?? meaningfulDescription {
            text += ": "
            text += detail
        }
        if let filePath, filePath != namedFile {
            text += "; file: "
            text += filePath
        }
        if let inner = underlying.first {
            text += "; underlying: "
            inner.appendOneLine(to: &text, besides: filePath ?? namedFile)
        }
    }

    /// The localized description when it says more than the domain and code do: not
    /// `The operation couldn’t be completed. (Cocoa error 134302.)`, but the words CloudDocs
    /// puts after the code in it (`(BRCloudDocsErrorDomain error 6 - Path is outside …)`).
    var meaningfulDescription: String? {
        guard let description, !description.isEmpty, description != "(null)" else { return nil }
        guard description.hasPrefix("The operation couldn") || description.hasPrefix("The operation could not") else { return description }
        guard let dash = description.firstRange(ofASCII: " - ") else { return nil }
        var words = Substring(description[dash.upperBound...])
        while let last = words.last, last == ")" || last == "." { words.removeLast() }
        return words.isEmpty ? nil : String(words)
    }
}
