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
