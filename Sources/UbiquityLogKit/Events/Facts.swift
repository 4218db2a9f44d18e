// The typed facts events carry: which store, which error, which objects changed.

/// Which of the two stores an event is about.
public enum StoreLocation: String, Sendable, CaseIterable {
    case local, cloud, unknown
}

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

    /// `NSCocoaErrorDomain 134302: reason`
    public var oneLine: String {
        var text = "\(domain) \(code)"
        if let detail = reason ?? description { text += ": \(detail)" }
        return text
    }
}

/// One managed object in an export or import, as its description printed it.
public struct ObjectChange: Sendable, Equatable {
    public enum Operation: String, Sendable, CaseIterable {
        case inserted, updated, deleted

        /// The timeline's mark: `+` inserted, `*` updated, `-` deleted.
        public var symbol: Character {
            switch self {
            case .inserted: "+"
            case .updated: "*"
            case .deleted: "-"
            }
        }
    }

    public struct Attribute: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public var operation: Operation
    public var entity: String
    /// The store-relative object id, e.g. `p12`.
    public var objectID: String
    /// Attributes and relationships in printed order; empty for faults.
    public var attributes: [Attribute]

    public init(operation: Operation, entity: String, objectID: String, attributes: [Attribute] = []) {
        self.operation = operation
        self.entity = entity
        self.objectID = objectID
        self.attributes = attributes
    }

    /// `Entry/p12: title = Walk; tags = (Tag/p3)`
    public var oneLine: String {
        let head = "\(entity)/\(objectID)"
        if attributes.isEmpty { return head }
        return head + ": " + attributes.map { "\($0.name) = \($0.value)" }.joined(separator: "; ")
    }
}
