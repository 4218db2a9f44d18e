// The named facts an event carries, and their values.

/// A named fact, in the order the JSON output prints it.
public struct Field: Sendable, Equatable {
    public var name: String
    public var value: FieldValue

    public init(_ name: String, _ value: FieldValue) {
        self.name = name
        self.value = value
    }
}

/// Not `indirect`: the nested cases hold arrays, which already live on the heap, so a plain
/// string or number field costs no box of its own.
public enum FieldValue: Sendable {
    case string(String)
    /// A fact as it stands in the record: the bytes a rule's group matched, a slice of the
    /// record's text, made into a String only when something reads it as one (`text`). Most
    /// events' facts are never read (`-q` prints none of a debug record's), and a String made
    /// for each of a record's groups would be an allocation, a copy, a UTF-8 check and a free.
    /// The slice keeps the record's bytes alive (see `RecordText`): a stage that keeps a fact
    /// past the record's batch keeps its `text`, never the slice.
    case span(RecordText)
    case int(Int)
    case bool(Bool)
    case list([FieldValue])
    case object([Field])

    /// The value as text: a `.string`'s, or a `.span`'s bytes read as `ByteText.string` does
    /// (bytes that are not UTF-8 as `\xNN`); nil for other values.
    public var text: String? {
        switch self {
        case .string(let text): text
        case .span(let bytes): ByteText.string(bytes)
        default: nil
        }
    }

    /// Whether the value is the text `literal`, compared on bytes (no String made).
    func isText(_ literal: StaticString) -> Bool {
        switch self {
        case .string(let text): text == String(describing: literal)
        case .span(let bytes):
            bytes.count == literal.utf8CodeUnitCount && bytes.withUnsafeBytes {
                $0.elementsEqual(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
            }
        default: false
        }
    }
}

/// Values are equal by what they say: a fact's text, whether it is a slice of a record or
/// a String of its own, equals the same text either way.
extension FieldValue: Equatable {
    public static func == (lhs: FieldValue, rhs: FieldValue) -> Bool {
        switch (lhs, rhs) {
        case (.int(let left), .int(let right)): left == right
        case (.bool(let left), .bool(let right)): left == right
        case (.list(let left), .list(let right)): left == right
        case (.object(let left), .object(let right)): left == right
        case (.string(let left), .string(let right)): left == right
        case (.string, .span), (.span, .string), (.span, .span): lhs.text == rhs.text
        default: false
        }
    }
}

/// Builds field lists, leaving out facts the log did not show.
struct FieldList {
    var items: [Field] = []

    /// The most fields `Extract.facts` adds (an error, a log, a URL, a peer, a root and a
    /// transaction): room a builder makes before appending them, so that appending them to an
    /// array of the exact size of a rule's groups never grows it (an allocation and a copy).
    static let roomForFacts = 6

    mutating func add(_ name: String, _ value: FieldValue) { items.append(Field(name, value)) }
    mutating func add(_ name: String, _ value: String?) { if let value { add(name, .string(value)) } }
    mutating func add(_ name: String, _ value: Int?) { if let value { add(name, .int(value)) } }

    mutating func add(_ error: ErrorInfo?) {
        guard let error else { return }
        var parts = FieldList()
        parts.items.reserveCapacity(6)  // its most: not grown 1, 2, 4, 8
        parts.add("domain", error.domain)
        parts.add("code", error.code)
        parts.add("description", error.description)
        parts.add("reason", error.reason)
        parts.add("filePath", error.filePath)
        if let underlying = error.underlying.first {
            var inner = FieldList()
            inner.add(underlying)
            parts.items += inner.items.map { Field("underlying", $0.value) }
        }
        add("error", .object(parts.items))
    }

    mutating func add(_ changes: [ObjectChange]) {
        add("changes", .int(changes.count))
        add("objects", .list(changes.map { change in
            .object([
                Field("op", .string(change.operation.rawValue)),
                Field("entity", .string(change.entity)),
                Field("id", .string(change.objectID)),
                Field("attributes", .object(change.attributes.map { Field($0.name, .string($0.value)) })),
            ])
        }))
    }
}
