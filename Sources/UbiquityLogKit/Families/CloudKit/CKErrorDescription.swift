// A CKError as a mirroring record prints it (`<CKError 0x…: "Name" (public/internal);
// "message"; server message = "…"; …>`), read by `CloudKitErrors`.

/// One CKError as its description prints it.
public struct CKErrorDescription: Sendable, Equatable {
    public var name: String
    public var code: Int?
    public var internalCode: Int?
    /// The internal code's domain when it is not CloudKit's own (`(6/NSCocoaErrorDomain:4099)`).
    public var internalDomain: String?
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
        fields.items.reserveCapacity(12)  // its most: not grown 1, 2, 4, 8, 16
        fields.add("name", name)
        fields.add("code", code)
        fields.add("internalCode", internalCode)
        fields.add("internalDomain", internalDomain)
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
