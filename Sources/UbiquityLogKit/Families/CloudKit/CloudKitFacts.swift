extension CloudKitTracker {
    /// What a record says failed, before its cause: `set-up failed`, `export blocked`, ….
    static func label(_ stage: String, _ kind: EventKind?, cause: CloudKitCause? = nil) -> String {
        if kind == .cloudKitRecoveryAttempted { return "recovering" }
        // A request a throttle stopped waits; one cancelled did not fail.
        let request = stage == "request" || stage == "sync" || stage == CloudKitTracker.unnamed ? "request" : stage
        switch cause {
        case .throttled?: return "\(request) waiting"
        case .cancelledPending?, .operationCancelled?: return ""  // its sentence says it
        default: break
        }
        switch stage {
        case "setup": return "set-up failed"
        case "recovery": return "recovery failed"
        case "teardown": return "mirroring reset"
        case "share": return "share not saved"
        case "request", "sync", CloudKitTracker.unnamed: return "request failed"
        default: return "\(stage) blocked"
        }
    }

    /// One sentence for a cause, named by what failed (`export blocked: …`), and by the CKError
    /// the log names for it: its name, code and internal code, and the HTTP status it carries
    /// (`(Quota Exceeded 25/2035)`, `(Service Unavailable 6/2022, HTTP 503)`).
    static func sentence(_ cause: CloudKitCause, stage: String, _ facts: Facts) -> String {
        let what = stage == "setup" ? "set-up failed" : stage == "sync" ? "sync failed"
            : stage == "request" || stage == CloudKitTracker.unnamed ? "request failed" : "\(stage) blocked"
        let type = facts.string("recordType")
        let field = facts.string("field")
        let named = facts.naming(cause).map { " (\($0))" } ?? ""
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
        case .containerNotLinked: return "\(what): the iCloud container is not assigned to the app's ID (Invalid bundle ID for container)" + named
        case .badContainer: return "\(what): CloudKit does not know the container" + (named.isEmpty ? " (Bad Container)" : named)
        case .permissionFailure: return "\(what): CloudKit refused permission" + (named.isEmpty ? " (Permission Failure)" : named)
        case .missingEntitlement: return "\(what): the app lacks the iCloud (CloudKit) entitlement" + named
        case .secondInstance: return "a second container mirrors the same store in this process (134410)"
        case .daemonUnreachable: return "\(what): the process cannot reach the CloudKit daemon (sandbox, entitlements or signing)" + named
        case .notInitialized: return "requests refused: mirroring set-up never succeeded (134406)"
        case .quotaExceeded: return "\(what): the user's iCloud storage is full" + (named.isEmpty ? " (Quota Exceeded)" : named)
        case .recordTooLarge: return "\(what): a record\(type.map { " of type \($0)" } ?? "") is over CloudKit's 1 MB limit" + named
        case .tooManyItems: return "\(what): more than 400 items in one request" + named
        case .duplicateRecordInRequest: return "\(what): one record saved twice in one request" + named
        case .noAccount: return "no iCloud account (134400): mirroring is off until the user signs in"
        case .accountTerms: return "the iCloud account must accept new terms" + named
        case .notAuthenticated: return "CloudKit access denied for the account" + (named.isEmpty ? " (Not Authenticated)" : named)
        case .signingFailure: return "no signed-in account can sign CloudKit requests" + (named.isEmpty ? " (Internal Error 1/4000)" : named)
        case .throttled:
            let status = facts.string("status").map { "HTTP \($0)" }
            let said = named.isEmpty ? status.map { " (\($0))" } ?? "" : named
            // The retry-after is left out: a failure's sentence is its key, and a log of many
            // throttles each with its own wait must not keep each (see `Failures`).
            return "throttled by CloudKit\(said)"
        case .network: return "\(what): the network or the server did not answer" + named
        case .zoneNotFound: return "the record zone\(facts.string("zone").map { " \($0)" } ?? "") does not exist" + named
        case .userDeletedZone: return "the user deleted the app's iCloud data, its zone purged" + (named.isEmpty ? "" : named)
        case .historyExpired: return "persistent history expired (134301)"
        case .changeTokenExpired: return "\(what): the server change token expired; changes are fetched again from scratch" + named
        case .objectsInSeveralZones: return "related objects are assigned to several zones"
        case .conflict: return "records changed on the server since fetched, merged by Core Data" + named
        case .duplicateSubscription: return "subscription already exists" + named
        case .cancelledPending: return "\(stage) request cancelled: one of its type was already pending (134417)"
        case .operationCancelled: return "\(stage) request cancelled" + named
        case .other:
            let name = facts.firstErrorName
            return "\(what): \(name ?? "an error")"
        }
    }
}

extension Facts {
    /// The CKError that gives `cause`, as the log names it: `Quota Exceeded 25/2035`,
    /// `Service Unavailable 6/NSCocoaErrorDomain:4099`, with `HTTP 503` when its message
    /// carries a status. The facts are a CKError's own (a partial-error entry's), or a
    /// record's whose `ckErrors` hold one of that cause; nil when none does.
    func naming(_ cause: CloudKitCause) -> String? {
        guard let error = error(of: cause), let name = error.string("name") else { return nil }
        var codes = error.int("code").map(String.init) ?? ""
        if let inner = error.int("internalCode") {
            codes += (codes.isEmpty ? "" : "/") + (error.string("internalDomain").map { "\($0):" } ?? "") + String(inner)
        }
        var said = codes.isEmpty ? name : "\(name) \(codes)"
        if let status = Facts.httpStatus(in: error.string("message") ?? "") { said += ", HTTP \(status)" }
        return said
    }

    /// The retry-after of the CKError that gives `cause`, or the record's.
    func retryAfter(of cause: CloudKitCause) -> String? {
        error(of: cause)?.string("retryAfter") ?? string("retryAfter")
    }

    private func error(of cause: CloudKitCause) -> Facts? {
        if string("name") != nil, value("ckErrors") == nil { return self }
        guard case .list(let errors)? = value("ckErrors") else { return nil }
        for case .object(let parts) in errors {
            let entry = Facts(parts)
            var description = CKErrorDescription(name: entry.string("name") ?? "")
            description.code = entry.int("code")
            description.internalCode = entry.int("internalCode")
            description.internalDomain = entry.string("internalDomain")
            description.message = entry.string("message")
            description.serverMessage = entry.string("serverMessage")
            if CloudKitErrors.cause(of: description) == cause { return entry }
        }
        return nil
    }

    /// `Request failed with http status code 503` → 503.
    static func httpStatus(in message: String) -> String? {
        guard let range = message.firstRange(ofASCII: "http status code ") else { return nil }
        let digits = message[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
        return digits.isEmpty ? nil : String(digits)
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
                case 14:
                    if name == "internalDomain" { description.internalDomain = parts[index].value.text }
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
    /// `Application%20Support` → `Application Support`: store URLs print spaces escaped (and
    /// iOS 5 the paths of system stores).
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
