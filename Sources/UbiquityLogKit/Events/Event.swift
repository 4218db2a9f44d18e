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
