// The CloudKit family's events, made from its rules' matches.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Making events of the family: facts from the named groups, and for failures the errors in
/// the record and the kind of their cause.
enum CloudKitEvent {
    /// `NSCloudKitMirroringExportRequest` → `export`, `NSCloudKitMirroringDelegateSetupRequest` → `setup`.
    /// Read as bytes (the class name is `[A-Za-z]+`), not by String's prefix, suffix, count and
    /// `lowercased`, which walk it Character by Character.
    static func requestType(_ className: String?) -> String? {
        guard var name = className else { return nil }
        return name.withUTF8 { requestType(UnsafeRawBufferPointer($0)) }
    }

    /// `requestType` of a class name as the record's bytes show it.
    static func requestType(_ className: RecordText) -> String? {
        className.withUnsafeBytes { requestType($0) }
    }

    private static func requestType(_ bytes: UnsafeRawBufferPointer) -> String? {
        func has(_ text: StaticString, at offset: Int) -> Bool {
            let count = text.utf8CodeUnitCount
            guard let base = bytes.baseAddress, offset >= 0, offset + count <= bytes.count else { return false }
            return memcmp(base + offset, text.utf8Start, count) == 0
        }
        guard has("NSCloudKitMirroring", at: 0) else { return nil }
        var start = 19
        var end = bytes.count
        if has("Delegate", at: start) { start += 8 }
        if end - start >= 7, has("Request", at: end - 7) { end -= 7 }
        guard start < end else { return nil }
        // Written straight into the String (a small one: `export`, `setup`), not through an
        // Array of its own: no allocation per request record.
        return String(unsafeUninitializedCapacity: end - start) { type in
            _ = type.initialize(from: bytes[start..<end])
            if type[0] >= UInt8(ascii: "A"), type[0] <= UInt8(ascii: "Z") { type[0] |= 0x20 }
            return end - start
        }
    }

    /// Groups whose text is a number.
    private static let numericGroups: Set<String> = ["objects", "token"]

    /// The facts the rule's groups hold, typed.
    /// `spare`: room for the fields the caller adds (see `RuleMatch.fields(numeric:skipping:leading:spare:)`).
    static func facts(_ match: RuleMatch, spare: Int = 0) -> FieldList {
        var fields = FieldList()
        // Made once here, not per call from a literal: a set's storage and two strings' hashes
        // for every record of the family.
        // Only a rule with one of those groups hands the set: for the others, no group's name
        // is hashed to find it is not there. (Names are told apart by their length first,
        // throughout: a comparison of Strings that differ is a call into the runtime.)
        let numeric = match.orderedGroups.contains { group in
            let name = group.name
            return name.utf8.count == 7 && name == "objects" || name.utf8.count == 5 && name == "token"
        } ? numericGroups : []
        // The groups' fields are typed where they stand, in the one array `fields(numeric:)`
        // made: no second array, and no retain and release of each field.
        fields.items = match.fields(numeric: numeric, spare: spare)
        var index = 0
        while index < fields.items.count {
            let value = fields.items[index].value
            let name = fields.items[index].name
            switch name.utf8.count {
            case 12 where name == "requestClass":
                guard case .span(let text) = value, let type = requestType(text) else {
                    fields.items.remove(at: index)
                    continue
                }
                fields.items[index] = Field("requestType", .string(type))
            case 7 where name == "success", 11 where name == "madeChanges", 18 where name == "needsToVerifyTerms":
                fields.items[index].value = .bool(value.isText("1") || value.isText("true") || value.isText("YES"))
            default:
                break
            }
            index += 1
        }
        return fields
    }

    /// A rule whose event is its kind and its facts (`message`): the classifier leaves the
    /// facts out where no part of the run reads those of `kind` (`Rule.buildsFactsOnly`).
    /// Most of the family's records are debug lines whose facts `-q` and the default timeline
    /// never read, so they must not be built for those runs.
    static func rule(_ id: String, _ channel: Channel, _ kind: EventKind, _ pattern: String,
                     position: RulePosition = .lineStart, methods: [String] = [], samples: @autoclosure @escaping @Sendable () -> [String]) -> Rule {
        Rule.factsOnly(id, channel, kind, pattern, position: position, methods: methods, samples: samples()) { message(kind, $0) }
    }

    /// The rule's facts; a warning or error also carries the error its record prints.
    static func message(_ kind: EventKind, _ match: RuleMatch) -> Event {
        let withError = kind.severity >= .warning
        var fields = facts(match, spare: withError ? 1 : 0)
        if withError { fields.add(match.errorAfterMatch()) }
        return .message(kind, fields.items)
    }

    /// A record that ends a request or reports a failure: `ok` when it says success 1 and
    /// carries no error, else the kind of the cause its errors add up to (`failed` when none is
    /// known); `fixedKind`: always `failed`, the cause only in the facts.
    static func outcome(_ match: RuleMatch, ok: EventKind? = nil, failed: EventKind, stage: String, fixedKind: Bool = false) -> Event {
        // Room for the stage, the error, the report's fields (at most eight) and the cause's words.
        var fields = facts(match, spare: 11)
        // What finished or failed: set-up, an export, a request (its type is `requestType`), ….
        fields.add("stage", stage)
        let succeeded = match.group("success", is: "1")
        if succeeded == true, let ok { return .message(ok, fields.items) }
        let report = CloudKitErrors.report(in: match.messageBytes)
        fields.add(match.errorAfterMatch())
        fields.items += report.fields
        var kind = failed
        // A cause no more specific than "other" leaves the record its own kind (set-up failed,
        // an unknown partial error).
        // A set-up that failed stays a set-up failure even when its cause is harmless elsewhere
        // (a duplicate subscription): the store is not mirrored.
        if !fixedKind, let cause = report.cause, cause != .other, stage != "setup" || cause.impact > .benign { kind = cause.kind }
        if let cause = report.cause {
            // The cause in words, which the timeline and the findings show for the record.
            let records = Set(report.causeErrors.compactMap(\.record)).count
            let what = stage == "request" ? (match["requestClass"].flatMap(requestType) ?? stage) : stage
            let said = CloudKitTracker.sentence(cause, stage: what, Facts(fields.items))
            let label = CloudKitTracker.label(what, fixedKind ? kind : nil, cause: cause)
            // Entries that failed only with their batch are named beside the cause they followed.
            // Those printed (22) and those CloudKit left out (`N "Batch Request Failed" CKError's omited`).
            let batched = report.omittedBatchErrors + report.errors.lazy.filter { $0.code == 22 }.count
            let batch = batched > 0 ? "; \(batched) more failed only with their batch (Batch Request Failed)" : ""
            let wait = Facts(fields.items).retryAfter(of: cause).map { ", retry after \($0) s" } ?? ""
            fields.add("causeText", (label.isEmpty || said.hasPrefix(label) ? said : label + ": " + said) + wait + (records > 1 ? " (\(records) records)" : "") + batch)
        }
        return .message(kind, fields.items)
    }
}
