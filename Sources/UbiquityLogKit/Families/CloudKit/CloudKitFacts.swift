extension CloudKitTracker {
    /// What a record says failed, before its cause: `set-up failed`, `export blocked`, ….
    static func label(_ stage: String, _ kind: EventKind?) -> String {
        if kind == .cloudKitRecoveryAttempted { return "recovering" }
        switch stage {
        case "setup": return "set-up failed"
        case "recovery": return "recovery failed"
        case "teardown": return "mirroring reset"
        case "share": return "share not saved"
        case "request", "sync", CloudKitTracker.unnamed: return "request failed"
        default: return "\(stage) blocked"
        }
    }

    /// One sentence for a cause, named by what failed (`export blocked: …`).
    static func sentence(_ cause: CloudKitCause, stage: String, _ facts: Facts) -> String {
        let what = stage == "setup" ? "set-up failed" : stage == "sync" || stage == "request" ? "sync failed" : "\(stage) blocked"
        let type = facts.string("recordType")
        let field = facts.string("field")
        switch cause {
        case .schemaMissingField:
            return "\(what): field \(field ?? "?") of record type \(type ?? "?") is not in the production schema"
        case .schemaMissingType:
            return "\(what): record type \(type ?? "?") is not in the production schema"
        case .modelOrderedRelationship: return "the model cannot be mirrored: it has an ordered relationship" + facts.entityList
        case .modelAttributeRequired: return "the model cannot be mirrored: an attribute is non-optional without a default" + facts.entityList
        case .modelRelationshipRequired: return "the model cannot be mirrored: a relationship is non-optional" + facts.entityList
        case .modelUnsupported:
            return "the model cannot be mirrored: it uses \(facts.string("modelRule") ?? "a feature CloudKit does not support")" + facts.entityList
        case .containerNotLinked: return "\(what): the iCloud container is not assigned to the app's ID (Invalid bundle ID for container)"
        case .badContainer: return "\(what): CloudKit does not know the container (Bad Container)"
        case .permissionFailure: return "\(what): CloudKit refused permission (Permission Failure)"
        case .missingEntitlement: return "\(what): the app lacks the CloudKit entitlement"
        case .secondInstance: return "a second container mirrors the same store in this process (134410)"
        case .daemonUnreachable: return "\(what): the CloudKit daemon cannot be reached (sandbox)"
        case .notInitialized: return "requests refused: mirroring set-up never succeeded (134406)"
        case .quotaExceeded: return "\(what): the user's iCloud storage is full (Quota Exceeded)"
        case .recordTooLarge: return "\(what): a record\(type.map { " of type \($0)" } ?? "") is over CloudKit's 1 MB limit"
        case .tooManyItems: return "\(what): more than 400 items in one request"
        case .duplicateRecordInRequest: return "\(what): one record saved twice in one request"
        case .noAccount: return "no iCloud account (134400): mirroring is off until the user signs in"
        case .accountTerms: return "the iCloud account must accept new terms"
        case .notAuthenticated: return "CloudKit access denied for the account (Not Authenticated)"
        case .signingFailure: return "no signed-in account can sign CloudKit requests (Internal Error 1/4000)"
        case .throttled: return "throttled by CloudKit, waiting" + (facts.string("retryAfter").map { " (retry after \($0) s)" } ?? "")
        case .network: return "\(what): the network or the server did not answer"
        case .zoneNotFound: return "the record zone\(facts.string("zone").map { " \($0)" } ?? "") does not exist"
        case .userDeletedZone: return "the user deleted the app's iCloud data (zone purged)"
        case .historyExpired: return "persistent history expired (134301)"
        case .objectsInSeveralZones: return "related objects are assigned to several zones"
        case .conflict: return "records changed on the server since fetched (merged)"
        case .duplicateSubscription: return "subscription already exists"
        case .cancelledPending: return "\(stage) request dropped: one of its type was already pending (134417)"
        case .other:
            let name = facts.firstErrorName
            return "\(what): \(name ?? "an error")"
        }
    }
}

/// A message event's facts by name.
struct Facts {
    let fields: [Field]
    init(_ fields: [Field]) { self.fields = fields }

    /// Each field read where it lies, its name's length compared before its bytes: `first(where:)`
    /// would hand every field to its closure as a copy (its name and value retained and
    /// released), and most names differ in length. Most look-ups are for a name the record
    /// does not have (a `stage`), so a miss must be cheap.
    func value(_ name: String) -> FieldValue? {
        let length = name.utf8.count
        for index in fields.indices where fields[index].name.utf8.count == length && fields[index].name == name {
            return fields[index].value
        }
        return nil
    }
    func string(_ name: String) -> String? { value(name)?.text }
    func int(_ name: String) -> Int? { if case .int(let number)? = value(name) { number } else { nil } }
    func bool(_ name: String) -> Bool? { if case .bool(let flag)? = value(name) { flag } else { nil } }

    /// The CKErrors of `cause` among the event's, each with its record (a partial-error entry's).
    func entries(of cause: CloudKitCause) -> [(record: String?, facts: Facts)] {
        guard case .list(let errors)? = value("ckErrors") else { return [] }
        return errors.compactMap { error -> (String?, Facts)? in
            guard case .object(let parts) = error else { return nil }
            // What `CloudKitErrors.cause(of:)` reads of the entry, and its record, taken in one
            // pass over its fields (each name is there once, `CKErrorDescription.value`), its
            // name left out (the cause does not read it): looked up one by one, each would be a
            // search of the entry's fields.
            // Each field read where it lies and told by its name's length first (the five
            // names' lengths differ), then its bytes: matched as `(name, value)` against the
            // five, each field would be copied and its name compared with each in turn.
            var description = CKErrorDescription(name: "")
            var record: String?
            for index in parts.indices {
                let name = parts[index].name
                switch name.utf8.count {
                case 4:
                    if name == "code", case .int(let code) = parts[index].value { description.code = code }
                case 12:
                    if name == "internalCode", case .int(let code) = parts[index].value { description.internalCode = code }
                case 7:
                    if name == "message" { description.message = parts[index].value.text }
                case 13:
                    if name == "serverMessage" { description.serverMessage = parts[index].value.text }
                case 6:
                    if name == "record" { record = parts[index].value.text }
                default:
                    break
                }
            }
            return CloudKitErrors.cause(of: description) == cause ? (record, Facts(parts)) : nil
        }
    }

    /// `Partial Failure (2/1011)`: the first CKError's name and codes, or the NSError's.
    var firstErrorName: String? {
        if case .list(let errors)? = value("ckErrors"), case .object(let parts)? = errors.first {
            let entry = Facts(parts)
            let codes = [entry.int("code"), entry.int("internalCode")].compactMap { $0 }.map(String.init).joined(separator: "/")
            return (entry.string("name") ?? "CKError") + (codes.isEmpty ? "" : " (\(codes))")
        }
        if case .object(let parts)? = value("error") {
            let error = Facts(parts)
            return [error.string("domain"), error.int("code").map(String.init)].compactMap { $0 }.joined(separator: " ")
        }
        return nil
    }
}

extension String {
    /// `Application%20Support` → `Application Support`: store URLs print spaces escaped.
    var removingPercentEncodedSpaces: String {
        // On the bytes of an ASCII text (each byte a character of its own), and the text itself
        // when it has none (most URLs): `replacing` (Swift's string processing, by Characters)
        // would be most of the work of a set-up record.
        let replaced = utf8.withContiguousStorageIfAvailable { bytes -> String? in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            func spaceAt(_ index: Int) -> Bool {
                index + 2 < bytes.count && bytes[index] == UInt8(ascii: "%") && bytes[index + 1] == UInt8(ascii: "2") && bytes[index + 2] == UInt8(ascii: "0")
            }
            guard bytes.indices.contains(where: spaceAt) else { return self }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var index = 0
            while index < bytes.count {
                if spaceAt(index) {
                    out.append(UInt8(ascii: " "))
                    index += 3
                } else {
                    out.append(bytes[index])
                    index += 1
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
        return (replaced ?? nil) ?? replacing("%20", with: " ")
    }
}

extension Facts {
    /// ` (Recipe: title, Recipe: createdAt)`: the `Entity: property` list of a model
    /// validation message (`entities`), or nothing.
    var entityList: String {
        guard case .list(let entities)? = value("entities"), !entities.isEmpty else { return "" }
        return " (" + entities.compactMap(\.text).joined(separator: ", ") + ")"
    }
}
