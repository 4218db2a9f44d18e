// The cause a mirroring record's errors add up to: each CKError's own, the Core Data
// mirroring codes', and phrases that tell a cause wherever they stand.

extension CloudKitErrors {
    static func cause(of report: CloudKitErrorReport, bytes: UnsafeRawBufferPointer) -> (CloudKitCause?, [CKErrorDescription]) {
        // The causes offered, each once, in the order they came; each CKError's own cause read
        // once, and the CKErrors of the cause that wins gathered once it is known, so that no
        // CKError is copied into a list for a cause that then loses.
        let errorCauses = report.errors.map { cause(of: $0) }
        var offered: [CloudKitCause] = []
        func offer(_ cause: CloudKitCause) {
            if !offered.contains(cause) { offered.append(cause) }
        }
        for case let cause? in errorCauses { offer(cause) }
        for code in report.errorCodes {
            switch code {
            case 134400: offer(.noAccount)
            case 134410: offer(.secondInstance)
            case 134417: offer(.cancelledPending)
            case 134406: offer(.notInitialized)
            case 134301: offer(.historyExpired)
            case 4097, 4099, 4101: offer(.daemonUnreachable)  // an XPC connection (to cloudd) failed
            default: break
            }
        }
        // The phrases are read over the whole failure text, one search each: only those whose
        // cause could still change the outcome. A phrase offers its cause with no error, so it
        // can change nothing when that cause is offered already, or when a cause other than
        // 134406's outranks it (the best stays, and 134406, if offered, goes either way). A
        // record whose entries say the schema is not deployed (the commonest failure, and the
        // highest rank) reads none of them.
        let outranking = offered.lazy.filter { $0 != .notInitialized }.map(\.rank).max() ?? Int.min
        for phrase in causePhrases where phrase.rank > outranking && !offered.contains(phrase.cause) {
            if phrase.isIn(bytes) { offer(phrase.cause) }
        }
        // A request refused because set-up failed (134406) is told by the set-up's own cause
        // when the record names it.
        if offered.count > 1 { offered.removeAll { $0 == .notInitialized } }
        // A partial failure alone says nothing more than that something failed.
        if offered.isEmpty, let first = report.errors.first { return (.other, [first]) }
        guard let best = offered.max(by: { $0.rank < $1.rank }) else { return (nil, []) }
        var errors: [CKErrorDescription] = []
        for (error, cause) in zip(report.errors, errorCauses) where cause == best { errors.append(error) }
        return (best, errors)
    }

    /// A text that tells a cause wherever it stands in a failure. The text is a static string
    /// and the cause's rank is kept, so that reading a phrase retains nothing and works out
    /// no rank.
    struct CausePhrase: Sendable {
        let cause: CloudKitCause
        let rank: Int
        let text: StaticString
        /// The text's least common byte (`RareByteSearch.anchor(of:)`), found once here rather
        /// than for every record.
        let anchor: Int

        init(_ text: StaticString, _ cause: CloudKitCause) {
            self.cause = cause
            rank = cause.rank
            self.text = text
            anchor = RareByteSearch.anchor(of: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }

        func isIn(_ subject: UnsafeRawBufferPointer) -> Bool {
            RareByteSearch.firstOffset(of: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount),
                                       anchor: anchor, in: subject) != nil
        }
    }

    static let causePhrases: [CausePhrase] = [
        CausePhrase("does not support ordered relationships", .modelOrderedRelationship),
        CausePhrase("requires that all attributes be optional", .modelAttributeRequired),
        CausePhrase("requires that all relationships be optional", .modelRelationshipRequired),
        CausePhrase("Sandbox restriction", .daemonUnreachable),
        CausePhrase("Error retrieving daemon", .daemonUnreachable),
        CausePhrase("assigned to multiple zones", .objectsInSeveralZones),
        CausePhrase("another instance of this persistent store", .secondInstance),
        CausePhrase("register a second handler for activity", .secondInstance),
        CausePhrase("without an iCloud account", .noAccount),
    ]

    /// Whether a CKError says the process could not talk to the CloudKit daemon: an internal
    /// XPC error of NSCocoaErrorDomain, or the framework's own words for it.
    static func isDaemonConnection(_ error: CKErrorDescription) -> Bool {
        if let inner = error.internalCode, error.internalDomain == nil || error.internalDomain == "NSCocoaErrorDomain",
           inner == 4097 || inner == 4099 || inner == 4101 {
            return error.code == 6 || error.internalDomain != nil
        }
        let message = error.message ?? ""
        return message.containsASCII("connecting to CloudKit daemon") || message.containsASCII("connection to service named com.apple.cloudd")
    }

    static func cause(of error: CKErrorDescription) -> CloudKitCause? {
        let server = error.serverMessage ?? ""
        let message = error.message ?? ""
        if server.containsASCII("production schema") {
            return server.containsASCII("Cannot create new type") ? .schemaMissingType : .schemaMissingField
        }
        if server.containsASCII("Invalid bundle ID for container") { return .containerNotLinked }
        // Service Unavailable is a server throttle (HTTP 503, internal 2022) unless the process
        // never reached the daemon: an XPC connection to cloudd that failed (NSCocoaErrorDomain
        // 4097 interrupted, 4099 invalidated, 4101 reply invalid) is the sandbox, the
        // entitlements or the signing, and waiting does not clear it.
        if error.code == 6 || error.code == nil, isDaemonConnection(error) { return .daemonUnreachable }
        switch (error.code, error.internalCode) {
        case (2?, _), (22?, _): return nil  // partial failure, batch failed: their entries say why
        case (1?, 4000?): return .signingFailure
        case (1?, _): return .other
        case (3?, _), (4?, _), (34?, _), (36?, _): return .network
        case (20?, _): return .operationCancelled
        case (5?, _): return .badContainer
        case (6?, _), (7?, _), (_, 2022?), (_, 2008?), (23?, _): return .throttled
        case (8?, _): return .missingEntitlement
        case (9?, 1004?): return .accountTerms
        case (9?, _): return message.containsASCII("verify new terms") || message.containsASCII("accept new terms") ? .accountTerms : .notAuthenticated
        case (10?, 2007?): return .containerNotLinked
        case (10?, _): return .permissionFailure
        case (11?, _): return .other
        case (12?, _): return message.containsASCII("same record twice") ? .duplicateRecordInRequest : .other
        case (14?, _): return .conflict
        case (15?, 2032?): return .duplicateSubscription
        case (15?, _): return server.containsASCII("subscription is duplicate") ? .duplicateSubscription : .other
        case (21?, _): return .changeTokenExpired  // CloudKit's server change token, not Core Data's history token
        case (25?, _): return .quotaExceeded
        case (26?, _): return .zoneNotFound
        case (27?, 1020?): return .tooManyItems
        case (27?, _): return message.containsASCII("maximum number of items") ? .tooManyItems : .recordTooLarge
        case (28?, _): return .userDeletedZone
        case (32?, _): return .notAuthenticated
        default: return .other
        }
    }
}
