// What a record is on the HTML report's timeline: the start or end of a bar, a tick, the start
// or end of a wait. The typed events of the engine have theirs here; the families give theirs
// for their message kinds by kind id (`TimelineRole.byKindID`, in Families/).

public enum TimelineRole: Sendable, Equatable {
    /// A store load (a mirroring set-up) begins: a bar opens.
    case loadStart
    case loadEnd(SpanOutcome)
    /// A request begins (joined to its end by its `requestID` fact when it has one).
    case requestStart
    case requestEnd(SpanOutcome)
    /// An export or an import: a tick, with the count of objects the event or the one before it gave.
    case transfer(TransferDirection)
    /// A throttle or a scheduler's deferral begins: a waiting span opens.
    case waitStart
    case waitEnd
    /// The store is in use again: an open incident of the lane ends, recovered.
    case recovery
}

public enum SpanOutcome: String, Sendable {
    case succeeded, failed, unavailable, cancelled, unfinished
}

public enum TransferDirection: String, Sendable {
    case export, `import`
}

extension TimelineRole {
    /// The role of an event, or nil for one the timeline draws no bar or tick for (an error or
    /// a warning still gets its mark).
    static func of(_ event: Event) -> TimelineRole? {
        switch event {
        case .storeLoadStarted: return .loadStart
        case .storeLoadSucceeded: return .loadEnd(.succeeded)
        case .storeLoadFailed, .storeAddFailed: return .loadEnd(.failed)
        case .objectsExported: return .transfer(.export)
        case .changesImported: return .transfer(.import)
        case .usingLocalStorage(let local, _, _): return local ? nil : .recovery
        case .message(let kind, _): return byKindID[kind.id]
        default: return nil
        }
    }

    /// Whether the role says the store works again (ends an incident).
    var recovers: Bool {
        switch self {
        case .recovery, .loadEnd(.succeeded), .requestEnd(.succeeded): true
        default: false
        }
    }
}
