// Everything `CloudKitErrors` reads from a mirroring record's failure, and the cause it adds
// up to.

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
