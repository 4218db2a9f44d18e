// What one record meant. Cases carry the facts later stages work with; messages whose
// only use is to be shown travel as `.message` with their kind and fields.
//
// Cases whose facts take more than two words are `indirect`: their facts live in a box of
// their own. An event is kept in every classified record and copied from stage to stage, so
// it must stay three words: with the widest cases inline (an error's five texts and list)
// every event, most of them `.message(kind, [])`, would be some 120 bytes, copied and
// destroyed by a switch over every case. Only the few typed events allocate.

public enum Event: Sendable, Equatable {
    // Store loading and switching
    indirect case storeLoadStarted(StoreLocation, store: String?)
    case storeLoadSucceeded(StoreLocation)
    indirect case storeLoadFailed(StoreLocation, error: ErrorInfo?)
    indirect case storeAddFailed(storeType: String?, url: String?, error: ErrorInfo?)
    indirect case usingLocalStorage(Bool, peer: String?, store: String?)

    // Exports
    case objectsExported([ObjectChange])
    indirect case transactionLogWritten(transaction: Int?, log: String?)
    case storeWillCommit(transaction: Int?)
    indirect case relationshipResolved(relationship: String, value: String)

    // Imports
    case changesImported([ObjectChange])
    case logAlreadyImported(log: String?)
    indirect case logAheadOfPeer(logScore: String?, localScore: String?, reason: String?)
    indirect case incompatibleOperationSkipped(score: String?, log: String?, transaction: Int?)
    indirect case importFailed(log: String?, error: ErrorInfo?)

    // Baselines and corruption
    indirect case baselineRollResponseFailed(error: ErrorInfo?)
    case cloudCorruptionDetected(deviceStore: String?)

    /// Any other recognised message: its kind and the facts its rule extracted.
    case message(EventKind, [Field])
    /// A ubiquity record no rule recognises. `limitHit`: a rule gave up on it (match limit).
    case unhandled(limitHit: Bool)
    /// A record of other code: the app's own lines.
    case app

    public var kind: EventKind {
        switch self {
        case .storeLoadStarted: .storeLoadStarted
        case .storeLoadSucceeded: .storeLoadSucceeded
        case .storeLoadFailed: .storeLoadFailed
        case .storeAddFailed: .storeAddFailed
        case .usingLocalStorage: .usingLocalStorage
        case .objectsExported: .objectsExported
        case .transactionLogWritten: .transactionLogWritten
        case .storeWillCommit: .storeWillCommit
        case .relationshipResolved: .relationshipResolved
        case .changesImported: .changesImported
        case .logAlreadyImported: .logAlreadyImported
        case .logAheadOfPeer: .logAheadOfPeer
        case .incompatibleOperationSkipped: .incompatibleOperationSkipped
        case .importFailed: .importFailed
        case .baselineRollResponseFailed: .baselineRollResponseFailed
        case .cloudCorruptionDetected: .cloudCorruptionDetected
        case .message(let kind, _): kind
        case .unhandled: .unhandled
        case .app: .app
        }
    }

    public var category: Category { kind.category }
    public var severity: Severity { kind.severity }

    /// The object changes an export or import carried.
    public var objectChanges: [ObjectChange] {
        switch self {
        case .objectsExported(let changes), .changesImported(let changes): changes
        default: []
        }
    }

    /// The error the event reports, if any.
    public var error: ErrorInfo? {
        switch self {
        case .storeLoadFailed(_, let error), .storeAddFailed(_, _, let error),
             .importFailed(_, let error), .baselineRollResponseFailed(let error):
            error
        case .message(_, let fields):
            // Made by `FieldList.add(_: ErrorInfo?)`: read back from the same names.
            fields.first { $0.name == "error" }.flatMap { ErrorInfo(fieldValue: $0.value) }
        default: nil
        }
    }

    /// Every fact of the event, named as in the JSON output.
    public var fields: [Field] {
        var fields = FieldList()
        switch self {
        case .storeLoadStarted(let location, let store):
            fields.add("store", location.rawValue)
            fields.add("storeURL", store)
        case .storeLoadSucceeded(let location):
            fields.add("store", location.rawValue)
        case .storeLoadFailed(let location, let error):
            fields.add("store", location.rawValue)
            fields.add(error)
        case .storeAddFailed(let type, let url, let error):
            fields.add("storeType", type)
            fields.add("storeURL", url)
            fields.add(error)
        case .usingLocalStorage(let local, let peer, let store):
            fields.add("localStorage", .bool(local))
            fields.add("peer", peer)
            fields.add("storeName", store)
        case .objectsExported(let changes), .changesImported(let changes):
            fields.add(changes)
        case .transactionLogWritten(let transaction, let log):
            fields.add("transaction", transaction)
            fields.add("log", log)
        case .storeWillCommit(let transaction):
            fields.add("transaction", transaction)
        case .relationshipResolved(let relationship, let value):
            fields.add("relationship", relationship)
            fields.add("value", value)
        case .logAlreadyImported(let log):
            fields.add("log", log)
        case .logAheadOfPeer(let logScore, let localScore, let reason):
            fields.add("logScore", logScore)
            fields.add("afterScore", localScore)
            fields.add("reason", reason)
        case .incompatibleOperationSkipped(let score, let log, let transaction):
            fields.add("logScore", score)
            fields.add("log", log)
            fields.add("transaction", transaction)
        case .importFailed(let log, let error):
            fields.add("log", log)
            fields.add(error)
        case .baselineRollResponseFailed(let error):
            fields.add(error)
        case .cloudCorruptionDetected(let deviceStore):
            fields.add("deviceStore", deviceStore)
        case .message(_, let extracted):
            return extracted
        case .unhandled(let limitHit):
            if limitHit { fields.add("matchLimitHit", .bool(true)) }
        case .app:
            break
        }
        return fields.items
    }
}

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
    /// events' facts are never read (`-q` prints none of a debug record's); a String made
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
    /// array of the exact size of a rule's groups does not grow it, an allocation and a copy
    /// each time.
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
