// The errors a mirroring record carries, read from its text: every CKError description
// (`<CKError 0x…: "Name" (public/internal); "message"; server message = "…"; …>`), each entry
// of a `partial errors: {…}` dictionary (found by its `KEY = <CKError …>` shape, not by line
// breaks, so that flattened pastes read the same), the count of batch errors CloudKit left out,
// and the Core Data mirroring codes (134400, 134406, 134410, 134417, …); and the cause they
// add up to.

/// One CKError as its description prints it.
public struct CKErrorDescription: Sendable, Equatable {
    public var name: String
    public var code: Int?
    public var internalCode: Int?
    /// The client-side message (the quoted text after the codes).
    public var message: String?
    public var serverMessage: String?
    /// The partial-error entry it belongs to: a record name, or a zone.
    public var record: String?
    public var zone: String?
    public var recordType: String?
    public var field: String?
    public var container: String?
    /// Seconds, as printed (`Retry after 12.0 seconds`, `CKRetryAfter: 30`).
    public var retryAfter: String?

    /// The field for the JSON output.
    var value: FieldValue {
        var fields = FieldList()
        fields.items.reserveCapacity(11)  // its most: not grown 1, 2, 4, 8, 16
        fields.add("name", name)
        fields.add("code", code)
        fields.add("internalCode", internalCode)
        fields.add("message", message)
        fields.add("serverMessage", serverMessage)
        fields.add("record", record)
        fields.add("zone", zone)
        fields.add("recordType", recordType)
        fields.add("field", field)
        fields.add("container", container)
        fields.add("retryAfter", retryAfter)
        return .object(fields.items)
    }
}

/// What went wrong, in the terms of what to do about it. Each cause has an impact on the
/// verdict and a kind that reports a failure of that cause.
public enum CloudKitCause: String, Sendable, CaseIterable {
    case schemaMissingField = "schema-missing-field"
    case schemaMissingType = "schema-missing-type"
    case modelOrderedRelationship = "model-ordered-relationship"
    case modelAttributeRequired = "model-attribute-required"
    case modelRelationshipRequired = "model-relationship-required"
    case containerNotLinked = "container-not-linked"
    case badContainer = "bad-container"
    case secondInstance = "second-instance"
    case permissionFailure = "permission-failure"
    case missingEntitlement = "missing-entitlement"
    case daemonUnreachable = "daemon-unreachable"
    case notInitialized = "not-initialized"
    case quotaExceeded = "quota-exceeded"
    case recordTooLarge = "record-too-large"
    case tooManyItems = "too-many-items"
    case duplicateRecordInRequest = "duplicate-record-in-request"
    case noAccount = "no-account"
    case accountTerms = "account-terms"
    case notAuthenticated = "not-authenticated"
    case signingFailure = "signing-failure"
    case throttled
    case network
    case zoneNotFound = "zone-not-found"
    case userDeletedZone = "user-deleted-zone"
    case historyExpired = "history-expired"
    case objectsInSeveralZones = "objects-in-several-zones"
    case conflict
    case duplicateSubscription = "duplicate-subscription"
    case cancelledPending = "cancelled-pending"
    case other

    public enum Impact: Int, Sendable, Comparable {
        /// Nothing to do: Core Data handles it or it is a duplicate request.
        case benign = 0
        /// Waits and retries by itself: throttles, the network.
        case transient = 1
        /// Sync is degraded: the user's account or storage, a zone to rebuild, some records.
        case degraded = 2
        /// Sync cannot work until the app or its CloudKit set-up is fixed.
        case broken = 3

        public static func < (lhs: Impact, rhs: Impact) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public var impact: Impact {
        switch self {
        case .schemaMissingField, .schemaMissingType, .modelOrderedRelationship, .modelAttributeRequired, .modelRelationshipRequired,
             .containerNotLinked, .badContainer, .secondInstance, .permissionFailure, .missingEntitlement, .daemonUnreachable,
             .notInitialized, .recordTooLarge, .tooManyItems, .duplicateRecordInRequest, .other:
            .broken
        case .quotaExceeded, .noAccount, .accountTerms, .notAuthenticated, .signingFailure, .zoneNotFound, .userDeletedZone,
             .historyExpired, .objectsInSeveralZones:
            .degraded
        case .throttled, .network:
            .transient
        case .conflict, .duplicateSubscription, .cancelledPending:
            .benign
        }
    }

    /// The kind a failure of this cause is reported as.
    public var kind: EventKind {
        switch self {
        case .schemaMissingField, .schemaMissingType: .cloudKitSchemaNotDeployed
        case .modelOrderedRelationship: .cloudKitModelOrderedRelationship
        case .modelAttributeRequired: .cloudKitModelAttributeRequired
        case .modelRelationshipRequired: .cloudKitModelRelationshipRequired
        case .containerNotLinked, .badContainer, .permissionFailure, .missingEntitlement: .cloudKitContainerNotLinked
        case .secondInstance: .cloudKitSecondInstance
        case .daemonUnreachable: .cloudKitDaemonUnreachable
        case .notInitialized: .cloudKitNotInitialized
        case .quotaExceeded: .cloudKitQuotaExceeded
        case .recordTooLarge, .tooManyItems, .duplicateRecordInRequest: .cloudKitLimitExceeded
        case .noAccount, .accountTerms, .notAuthenticated, .signingFailure: .cloudKitAccountUnavailable
        case .throttled: .cloudKitThrottled
        case .network: .cloudKitNetworkUnavailable
        case .zoneNotFound, .userDeletedZone: .cloudKitZoneMissing
        case .historyExpired: .cloudKitHistoryExpired
        case .objectsInSeveralZones: .cloudKitObjectsInSeveralZones
        case .conflict: .cloudKitRecordConflict
        case .duplicateSubscription: .cloudKitSubscriptionDuplicate
        case .cancelledPending: .cloudKitRequestCancelled
        case .other: .cloudKitRequestFailed
        }
    }

    /// Causes ranked for the one a record is reported by: the worst impact first, and among
    /// equals the more specific (a schema gap before the partial failure it came in).
    var rank: Int { impact.rawValue * 100 + (CloudKitCause.allCases.count - (CloudKitCause.allCases.firstIndex(of: self) ?? 0)) }
}

/// Everything a mirroring record says went wrong.
public struct CloudKitErrorReport: Sendable, Equatable {
    /// Every CKError in the record, outermost first, partial-error entries after it.
    public var errors: [CKErrorDescription] = []
    /// `N "Batch Request Failed" CKError's omited`: entries CloudKit left out of the dictionary.
    public var omittedBatchErrors = 0
    /// NSCocoaErrorDomain / CKErrorDomain codes of the NSErrors printed (`Error Domain=… Code=…`).
    public var errorCodes: [Int] = []
    /// The cause it adds up to, and the entries (CKErrors) of that cause.
    public var cause: CloudKitCause?
    public var causeErrors: [CKErrorDescription] = []

    public var isEmpty: Bool { errors.isEmpty && errorCodes.isEmpty && cause == nil }

    /// How many records the cause affected: its partial-error entries (at least one).
    public var affectedRecords: Int { max(1, causeErrors.filter { $0.record != nil }.count) }

    var fields: [Field] {
        var fields = FieldList()
        fields.items.reserveCapacity(8)  // its most: not grown 1, 2, 4, 8
        if let cause { fields.add("cause", cause.rawValue) }
        if !errors.isEmpty { fields.add("ckErrors", .list(errors.map(\.value))) }
        if omittedBatchErrors > 0 { fields.add("omittedBatchErrors", omittedBatchErrors) }
        if let first = causeErrors.first {
            fields.add("recordType", first.recordType)
            fields.add("field", first.field)
            fields.add("zone", first.zone)
            fields.add("retryAfter", first.retryAfter)
            let records = causeErrors.compactMap(\.record)
            if !records.isEmpty { fields.add("records", .int(records.count)) }
        }
        return fields.items
    }
}

enum CloudKitErrors {
    /// Reads every error in `text` (a mirroring record's message).
    static func report(in text: String) -> CloudKitErrorReport {
        Array(text.utf8).withUnsafeBytes { report(bytes: $0) }
    }

    /// Reads every error in a mirroring record's message, given as its bytes: rules pass
    /// `RuleMatch.messageBytes`, so no String is made of the whole failure text (a String of
    /// it, then its bytes copied out again, was how this began). Invalid UTF-8 is read as the
    /// String would hold it (each bad sequence a U+FFFD), so that offsets and limits fall as
    /// they did.
    /// Valid UTF-8 (nearly every record) is read where it stands: copied into an array first,
    /// and read through the array's checked subscripts, a failure's text cost some 2,500
    /// instructions more (callgrind, `-q`, the default mix's 111 failures).
    static func report(in message: UnsafeRawBufferPointer) -> CloudKitErrorReport {
        ByteText.isValidUTF8(message) ? report(bytes: message) : Array(ByteText.string(message).utf8).withUnsafeBytes { report(bytes: $0) }
    }

    private static func report(bytes: UnsafeRawBufferPointer) -> CloudKitErrorReport {
        var report = CloudKitErrorReport()
        report.errors = descriptions(in: bytes)
        report.omittedBatchErrors = omitted(in: bytes)
        report.errorCodes = errorCodes(in: bytes)
        (report.cause, report.causeErrors) = cause(of: report, bytes: bytes)
        return report
    }

    // MARK: CKError descriptions

    private static let open = Array("<CKError ".utf8)
    private static let ckErrorDomainCode = Array("CKErrorDomain Code=".utf8)
    private static let ckErrorDomainError = Array("(CKErrorDomain error ".utf8)

    static func descriptions(in bytes: UnsafeRawBufferPointer) -> [CKErrorDescription] {
        var found: [CKErrorDescription] = []
        var from = 0
        while let at = find(open, in: bytes, from: from) {
            from = at + open.count
            if var error = description(in: bytes, at: from) {
                (error.record, error.zone) = entryKey(in: bytes, before: at, zone: error.zone)
                found.append(error)
            }
            if found.count >= 500 { break }
        }
        // A bare `CKErrorDomain Code=N` or `(CKErrorDomain error N.)` when no description is printed.
        if found.isEmpty {
            for code in codes(after: ckErrorDomainCode, in: bytes) + codes(after: ckErrorDomainError, in: bytes) {
                found.append(CKErrorDescription(name: CKErrorCode.name(of: code) ?? "CKError \(code)", code: code))
            }
        }
        return found
    }

    /// `0x…: "Name" (A/B); "message"; server message = "…"; op = …; container ID = "…"; Retry after N seconds`
    private static func description(in bytes: UnsafeRawBufferPointer, at start: Int) -> CKErrorDescription? {
        var index = start
        // The address, or `<private>`, up to `: `.
        while index < bytes.count, bytes[index] != UInt8(ascii: ":"), bytes[index] != 0x0A, index - start < 40 { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        skipBlanks(bytes, &index)
        guard let name = quoted(bytes, &index) else { return nil }
        var error = CKErrorDescription(name: name)
        skipBlanks(bytes, &index)
        if index < bytes.count, bytes[index] == UInt8(ascii: "(") {
            index += 1
            error.code = number(bytes, &index)
            if index < bytes.count, bytes[index] == UInt8(ascii: "/") {
                index += 1
                error.internalCode = number(bytes, &index)
            }
            // `(2022)` alone is the internal code.
            if error.internalCode == nil, let code = error.code, code >= 1000 { error.internalCode = code; error.code = nil }
            if index < bytes.count, bytes[index] == UInt8(ascii: ")") { index += 1 }
        }
        // Segments up to the description's end or its partial errors.
        var segments = 0
        while index < bytes.count, segments < 20 {
            skipBlanks(bytes, &index)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ";") else { break }
            index += 1
            skipBlanks(bytes, &index)
            segments += 1
            if let text = quoted(bytes, &index) {
                if error.message == nil { error.message = text }
            } else if take("server message = ", bytes, &index) {
                error.serverMessage = quoted(bytes, &index)
            } else if take("container ID = ", bytes, &index) {
                error.container = quoted(bytes, &index) ?? word(bytes, &index)
            } else if take("Retry after ", bytes, &index) {
                error.retryAfter = word(bytes, &index)
            } else if take("partial errors: ", bytes, &index) {
                break
            } else {
                _ = word(bytes, &index)  // op = …, uuid = …: not kept
                while index < bytes.count, bytes[index] != UInt8(ascii: ";"), bytes[index] != UInt8(ascii: ">"), bytes[index] != 0x0A { index += 1 }
            }
        }
        if let server = error.serverMessage { readServerMessage(server, into: &error) }
        if let message = error.message { readServerMessage(message, into: &error) }
        return error
    }

    /// Record type, field and zone named by a server message.
    private static func readServerMessage(_ text: String, into error: inout CKErrorDescription) {
        // Read where the String keeps its bytes (a native String always does), not copied out.
        if text.utf8.withContiguousStorageIfAvailable({ readServerMessage(UnsafeRawBufferPointer($0), into: &error) }) == nil {
            Array(text.utf8).withUnsafeBytes { readServerMessage($0, into: &error) }
        }
    }

    private static func readServerMessage(_ bytes: UnsafeRawBufferPointer, into error: inout CKErrorDescription) {
        if let at = find(fieldOpen, in: bytes, from: 0) {
            error.field = error.field ?? upTo(UInt8(ascii: "'"), bytes, at + 7)
            if let type = find(recordOpen, in: bytes, from: at) { error.recordType = error.recordType ?? upTo(UInt8(ascii: "'"), bytes, type + 11) }
        }
        if let at = find(newType, in: bytes, from: 0) {
            var index = at + 23
            error.recordType = error.recordType ?? word(bytes, &index)
        }
        if let at = find(zoneOpen, in: bytes, from: 0) { error.zone = error.zone ?? upTo(UInt8(ascii: "'"), bytes, at + 6) }
    }

    // Made once, not an array from a literal at each of the two calls a CKError makes.
    private static let fieldOpen = Array("field '".utf8)
    private static let recordOpen = Array("in record '".utf8)
    private static let newType = Array("Cannot create new type ".utf8)
    private static let zoneOpen = Array("Zone '".utf8)

    /// The partial-error entry a CKError at `start` is the value of: `KEY = <CKError`, where the
    /// key is `record:(zone:owner)`, `zone:owner`, `<CKRecordID: …; recordName=R, zoneID=Z:o>`
    /// or a subscription id, quoted or not; read back to the entry's start (a brace, a line end,
    /// a tab, a comma, or the `>` that ends the entry before it).
    private static func entryKey(in bytes: UnsafeRawBufferPointer, before start: Int, zone: String?) -> (String?, String?) {
        var end = start
        if end > 0, bytes[end - 1] == UInt8(ascii: "\"") { end -= 1 }  // `= "<CKError`
        guard end >= 3, bytes[end - 3] == 0x20, bytes[end - 2] == UInt8(ascii: "="), bytes[end - 1] == 0x20 else { return (nil, zone) }
        end -= 3
        if end > 0, bytes[end - 1] == UInt8(ascii: "\"") { end -= 1 }
        var keyStart = end
        if keyStart > 0, bytes[keyStart - 1] == UInt8(ascii: ">") {
            // `<CKRecordID: 0x…; recordName=R, zoneID=Z:owner>`: back to its `<`.
            while keyStart > 0, end - keyStart < 400, bytes[keyStart - 1] != UInt8(ascii: "<"), bytes[keyStart - 1] != 0x0A { keyStart -= 1 }
            if keyStart > 0, bytes[keyStart - 1] == UInt8(ascii: "<") { keyStart -= 1 }
        } else {
            // `record:(zone:owner)`, `zone:owner`, a subscription id: no blanks inside.
            while keyStart > 0, end - keyStart < 400,
                  !isKeyStop(bytes[keyStart - 1]) {
                keyStart -= 1
            }
        }
        // Keys are ASCII (record names, zone names, addresses): read on their bytes. The String
        // below walked the key Character by Character (`prefix`, its index steps): some 11,000
        // instructions an entry, 1.15 M of the 3 MB default mix's (callgrind).
        if let read = asciiEntryKey(bytes, keyStart..<end, zone: zone) { return read }
        let key = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[keyStart..<end]), as: UTF8.self).trimmingCharacters(in: " \t\"")
        guard !key.isEmpty else { return (nil, zone) }
        if let name = key.firstRange(ofASCII: "recordName=") {
            let record = String(key[name.upperBound...].prefix { $0 != "," && $0 != ">" && $0 != ";" })
            var foundZone = zone
            if let zoneID = key.firstRange(ofASCII: "zoneID=") {
                foundZone = String(key[zoneID.upperBound...].prefix { $0 != ":" && $0 != ">" && $0 != "," })
            }
            return (record, foundZone)
        }
        if let paren = key.firstRange(ofASCII: ":(") {
            let zonePart = key[paren.upperBound...].prefix { $0 != ":" && $0 != ")" }
            return (String(key[..<paren.lowerBound]), zone ?? String(zonePart))
        }
        if let colon = key.firstIndex(of: ":") { return (nil, zone ?? String(key[..<colon])) }
        return (key, zone)
    }

    private static let batchRequestFailed = Array("Batch Request Failed".utf8)
    private static let omitedWord = Array("omited".utf8)
    private static let omittedWord = Array("omitted".utf8)

    /// `entryKey` on a key of ASCII bytes, the same reading as its String path gives (nil for
    /// a key that is not ASCII: grapheme clusters could then join a delimiter to what follows).
    private static func asciiEntryKey(_ all: UnsafeRawBufferPointer, _ range: Range<Int>, zone: String?) -> (String?, String?)? {
        do {
            var lower = range.lowerBound
            var upper = range.upperBound
            for index in lower..<upper where all[index] >= 0x80 { return nil }
            func isTrimmed(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == UInt8(ascii: "\"") }
            while lower < upper, isTrimmed(all[lower]) { lower += 1 }
            while lower < upper, isTrimmed(all[upper - 1]) { upper -= 1 }
            guard lower < upper else { return (nil, zone) }
            let key = UnsafeRawBufferPointer(rebasing: all[lower..<upper])
            func text(_ from: Int, _ to: Int) -> String { String(decoding: UnsafeRawBufferPointer(rebasing: key[from..<to]), as: UTF8.self) }
            /// From `from` up to the first of `stops`, or the key's end.
            func run(from: Int, until stops: StaticString) -> String {
                let stop = UnsafeBufferPointer(start: stops.utf8Start, count: stops.utf8CodeUnitCount)
                var end = from
                while end < key.count, !stop.contains(key[end]) { end += 1 }
                return text(from, end)
            }
            func offset(of needle: StaticString) -> Int? {
                ByteSearch.firstOffset(of: UnsafeRawBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount), in: key)
            }
            if let name = offset(of: "recordName=") {
                let record = run(from: name + 11, until: ",>;")
                return (record, offset(of: "zoneID=").map { run(from: $0 + 7, until: ":>,") } ?? zone)
            }
            if let paren = offset(of: ":(") {
                return (text(0, paren), zone ?? run(from: paren + 2, until: ":)"))
            }
            if let colon = ByteSearch.firstOffset(of: UInt8(ascii: ":"), in: key, from: 0) { return (nil, zone ?? text(0, colon)) }
            return (text(0, key.count), zone)
        }
    }

    static func omitted(in bytes: UnsafeRawBufferPointer) -> Int {
        var total = 0
        var from = 0
        let phrase = batchRequestFailed
        while let at = find(phrase, in: bytes, from: from) {
            from = at + phrase.count
            // `N "Batch Request Failed" CKError's omited`, the quotes maybe escaped.
            let tail = UnsafeRawBufferPointer(rebasing: bytes[from..<min(bytes.count, from + 30)])
            guard find(omitedWord, in: tail, from: 0) != nil || find(omittedWord, in: tail, from: 0) != nil else { continue }
            var index = at - 1
            while index >= 0, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "\\") || bytes[index] == 0x20 { index -= 1 }
            let digitsEnd = index + 1
            while index >= 0, bytes[index] &- UInt8(ascii: "0") < 10 { index -= 1 }
            guard digitsEnd > index + 1 else { continue }
            var position = index + 1
            total += number(bytes, &position) ?? 0
        }
        return total
    }

    static func errorCodes(in bytes: UnsafeRawBufferPointer) -> [Int] {
        // `Error Domain=NSCocoaErrorDomain Code=N`, and `NSCocoaErrorDomain:N` as recovery prints it.
        codes(after: cocoaCode, in: bytes) + codes(after: cocoaColon, in: bytes)
    }

    private static let cocoaCode = Array("NSCocoaErrorDomain Code=".utf8)
    private static let cocoaColon = Array("NSCocoaErrorDomain:".utf8)

    private static func codes(after prefix: [UInt8], in bytes: UnsafeRawBufferPointer) -> [Int] {
        var found: [Int] = []
        var from = 0
        while let at = find(prefix, in: bytes, from: from), found.count < 20 {
            var index = at + prefix.count
            from = index
            if let code = number(bytes, &index), !found.contains(code) { found.append(code) }
        }
        return found
    }

    // MARK: Cause

    static func cause(of report: CloudKitErrorReport, bytes: UnsafeRawBufferPointer) -> (CloudKitCause?, [CKErrorDescription]) {
        // The causes offered, each once, in the order they came; each CKError's own cause read
        // once, and the CKErrors of the cause that wins gathered once it is known. Each offer
        // appended a copy of its CKError (ten texts retained) to a list for its cause, lists
        // that all but one were dropped: some 530 instructions a failure more, 59,000 of the
        // 3 MB default mix's 111 (callgrind, -q, one thread).
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

    /// A text that tells a cause wherever it stands in a failure.
    /// (The text a static string and the cause's rank kept: each phrase read for a failure
    /// retained and released its array, and worked its cause's rank out again, some 700
    /// instructions a failure, 17 a record with `-q` on the default mix, callgrind.)
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

    static func cause(of error: CKErrorDescription) -> CloudKitCause? {
        let server = error.serverMessage ?? ""
        let message = error.message ?? ""
        if server.containsASCII("production schema") {
            return server.containsASCII("Cannot create new type") ? .schemaMissingType : .schemaMissingField
        }
        if server.containsASCII("Invalid bundle ID for container") { return .containerNotLinked }
        switch (error.code, error.internalCode) {
        case (2?, _), (22?, _): return nil  // partial failure, batch failed: their entries say why
        case (1?, 4000?): return .signingFailure
        case (1?, _): return .other
        case (3?, _), (4?, _), (34?, _), (36?, _), (20?, _): return .network
        case (5?, _): return .badContainer
        case (6?, _), (7?, _), (_, 2022?), (_, 2008?), (23?, _): return .throttled
        case (8?, _): return .missingEntitlement
        case (9?, 1004?): return .accountTerms
        case (9?, _): return message.containsASCII("verify new terms") ? .accountTerms : .notAuthenticated
        case (10?, _): return .permissionFailure
        case (11?, _): return .other
        case (12?, _): return message.containsASCII("same record twice") ? .duplicateRecordInRequest : .other
        case (14?, _): return .conflict
        case (15?, 2032?): return .duplicateSubscription
        case (15?, _): return server.containsASCII("subscription is duplicate") ? .duplicateSubscription : .other
        case (21?, _): return .historyExpired
        case (25?, _): return .quotaExceeded
        case (26?, _): return .zoneNotFound
        case (27?, 1020?): return .tooManyItems
        case (27?, _): return message.containsASCII("maximum number of items") ? .tooManyItems : .recordTooLarge
        case (28?, _): return .userDeletedZone
        case (32?, _): return .notAuthenticated
        default: return .other
        }
    }

    // MARK: Bytes

    static func find(_ needle: [UInt8], in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard !needle.isEmpty, start >= 0, bytes.count - start >= needle.count else { return nil }
        return needle.withUnsafeBytes { ByteSearch.firstOffset(of: $0, in: UnsafeRawBufferPointer(rebasing: bytes[start...])) }
            .map { $0 + start }
    }

    private static func skipBlanks(_ bytes: UnsafeRawBufferPointer, _ index: inout Int) {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A { index += 1 }
    }

    private static func take(_ text: StaticString, _ bytes: UnsafeRawBufferPointer, _ index: inout Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let expected = UnsafeBufferPointer(start: text.utf8Start, count: count)
        for offset in 0..<count where bytes[index + offset] != expected[offset] { return false }
        index += count
        return true
    }

    /// A quoted text (`"…"` or `\"…\"`), ending at a quote before `;`, `>`, `,`, a line end or
    /// the end: server messages hold quotes of their own.
    private static func quoted(_ bytes: UnsafeRawBufferPointer, _ index: inout Int) -> String? {
        var at = index
        if at < bytes.count, bytes[at] == UInt8(ascii: "\\") { at += 1 }
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { return nil }
        let start = at + 1
        var end = start
        while end < bytes.count, bytes[end] != 0x0A {
            if bytes[end] == UInt8(ascii: "\"") {
                let after = end + 1
                var textEnd = end
                if textEnd > start, bytes[textEnd - 1] == UInt8(ascii: "\\") { textEnd -= 1 }
                if after >= bytes.count || isQuoteEnd(bytes[after])
                    || bytes[after] == 0x20 && after + 1 < bytes.count && bytes[after + 1] == UInt8(ascii: "(") {
                    index = after
                    return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<textEnd]), as: UTF8.self)
                }
            }
            end += 1
        }
        return nil
    }

    private static func word(_ bytes: UnsafeRawBufferPointer, _ index: inout Int) -> String? {
        let start = index
        while index < bytes.count, !isWordEnd(bytes[index]) { index += 1 }
        return index > start ? String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self) : nil
    }

    // The sets of bytes that end a text, as switches: arrays made from literals for each byte
    // looked at.
    private static func isKeyStop(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, UInt8(ascii: "{"), UInt8(ascii: ","), UInt8(ascii: ">"), UInt8(ascii: "\""): true
        default: false
        }
    }

    private static func isQuoteEnd(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ";"), UInt8(ascii: ">"), UInt8(ascii: ","), 0x0A, UInt8(ascii: ")"): true
        default: false
        }
    }

    private static func isWordEnd(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x0A, 0x09, UInt8(ascii: ";"), UInt8(ascii: ">"), UInt8(ascii: ","): true
        default: false
        }
    }

    private static func upTo(_ stop: UInt8, _ bytes: UnsafeRawBufferPointer, _ start: Int) -> String? {
        var end = start
        while end < bytes.count, bytes[end] != stop, bytes[end] != 0x0A, end - start < 200 { end += 1 }
        return end > start && end < bytes.count && bytes[end] == stop ? String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) : nil
    }

    private static func number(_ bytes: UnsafeRawBufferPointer, _ index: inout Int) -> Int? {
        let start = index
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10, index - start < 12 { index += 1 }
        // At most 12 digits: the value is never too large, and made without a String.
        guard index > start else { return nil }
        var value = 0
        for digit in start..<index { value = value * 10 + Int(bytes[digit] &- UInt8(ascii: "0")) }
        return value
    }
}

extension String {
    /// Whether the ASCII text `needle` stands in the string: `firstRange(ofASCII:)` without the
    /// indexes it makes of what it finds. A CKError's cause asks its two texts for up to four
    /// phrases, some 600 instructions each that way (484 asks, 0.3 M on the default mix's 3 MB
    /// slice, callgrind).
    func containsASCII(_ needle: StaticString) -> Bool {
        let found = utf8.withContiguousStorageIfAvailable { haystack in
            RareByteSearch.firstOffset(of: UnsafeRawBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount),
                                       in: UnsafeRawBufferPointer(haystack)) != nil
        }
        return found ?? (firstRange(ofASCII: needle) != nil)
    }
}
