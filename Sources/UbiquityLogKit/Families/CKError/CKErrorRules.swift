// The rules of the `ckerror` family: a CKError wherever a line outside Core Data's mirroring
// records prints it. Its description (`<CKError 0x…: "Name" (code/internal); …>`, its quotes
// escaped when the app printed it inside a string of its own), an NSError of its domain
// (`Error Domain=CKErrorDomain Code=N`, `CKErrorDomain Code=N`, `(CKErrorDomain error N.)`,
// `CKErrorDomain:N`, localised: `(CKErrorDomain-Fehler 25.)`), Swift's spellings (`CKError.Code: N`,
// `CKError.zoneNotFound`, `CKError(rawValue: 25)`), and an account status that stops sync
// (`CKAccountStatus.noAccount`). Each is judged by its code (CKErrorKinds.swift). The error may
// stand anywhere in a line.

enum CKErrorRules {
    /// Samples: a CKSyncEngine line as `log show` prints it, an app's NSLog (Xcode with a
    /// timestamp), and an app's logger writing to the console without one.
    static func syncEngine(_ message: String) -> String {
        "2025-06-02 10:11:12.100201+0200 0x2a01f    Default     0x0                  4410   0    Pantry: (CloudKit) [com.apple.cloudkit:CKSyncEngine] \(message)"
    }

    static func nslog(_ message: String) -> String { "2024-12-09 18:40:03.551924-0800 Trails[881:1f0c2] \(message)" }

    static func framework(_ message: String) -> String {
        "2023-04-17 07:55:31.004 Df Birdwatch[301:9a2e] [com.apple.cloudkit:OP] \(message)"
    }

    static let all: [Rule] = [
        Rule("ckerror-description", .ckError, .ckErrorRequestFailed,
             #"(?<before>[^\n]{0,2000}?)<CKError[ ](?:0x[0-9A-Fa-f]+|<private>):[ ]\\{0,3}""#,
             samples: [
                syncEngine(#"<CKSyncEngine 0x600002c1d0e0> Failed to send changes: <CKError 0x600000c1e2c0: "Zone Not Found" (26/2036); server message = "Zone 'Pantry' does not exist"; op = 4D5E6F7A8B9C0D1E; uuid = 1C2D3E4F-5A6B-4C7D-8E9F-0A1B2C3D4E5F>"#),
                nslog(#"Upload failed: "<CKError 0x600000c1e2a0: \"Network Unavailable\" (3/-1009); \"The Internet connection appears to be offline.\">""#),
                framework(#"<CKModifyRecordsOperation: 0x10481c200; operationID=8F7E6D5C4B3A2918> finished with error <CKError 0x281f4c2a0: "Partial Failure" (2/1011); "Failed to modify some records"; partial errors: { Sighting-0042:(Sightings:__defaultOwner__) = <CKError 0x281f4c3c0: "Quota Exceeded" (25/2035); server message = "Quota exceeded"; Retry after 600.0 seconds>, Sighting-0043:(Sightings:__defaultOwner__) = <CKError 0x281f4c3f0: "Batch Request Failed" (22/2024); "Record CKRecordID=Sighting-0043 could not be saved because another item of the atomic batch failed"> }>"#),
                nslog(#"fetch failed <CKError 0x6000011a4e70: "Service Unavailable" (6/NSCocoaErrorDomain:4099); "Error connecting to CloudKit daemon. This could happen for many reasons, for example a daemon exit, a device reboot, a race with the connection inactivity monitor, invalid entitlements, and more. Check the logs around this time to investigate the cause of this error."; Retry after 1.0 seconds>"#),
                "Apr 17 07:55:31 Birdwatch-Mac Birdwatch[301]: Zones refreshed with error: <CKError 0x0: \"Change Token Expired\" (21/2026); server message = \"client knowledge differs from server knowledge\">",
             ]) { match in event(match, code: nil) },
        Rule("ckerror-domain-code", .ckError, .ckErrorRequestFailed,
             #"(?<before>[^\n]{0,2000}?)(?:Error[ ]Domain=CKErrorDomain[ ]Code=|\(?CKErrorDomain(?:[ ]Code=|[ -]?[^\s\d=;,"]{0,10}[ ]?)|CKError\.Code:[ ]?|CKError(?:\.Code|Code)?\(rawValue:[ ]?)(?<code>\d+)"#,
             samples: [
                nslog(#"Sync failed: Error Domain=CKErrorDomain Code=26 "Zone Not Found" UserInfo={NSLocalizedDescription=Zone Not Found, CKErrorDescription=Zone 'Trails' does not exist}"#),
                nslog("save: CKErrorDomain Code=4 network failure, retrying in 30 s"),
                nslog("The operation couldn’t be completed. (CKErrorDomain error 9.)"),
                "2024/12/09 18:40:03:551  [SyncCoordinator] upload rejected: CKErrorDomain:25",
                nslog("User Deleted Zone: the user has deleted this zone from the settings UI.CKError.Code: 28"),
                syncEngine("sync engine error code CKErrorCode(rawValue: 7) for zone Trails"),
                nslog("Upload failed: CKError(rawValue: 25)"),
                // NSError's description of a code without one of its own, localised: the domain,
                // then the code, whatever the words around them.
                nslog("Upload failed: Der Vorgang konnte nicht abgeschlossen werden. (CKErrorDomain-Fehler 25.)"),
                nslog("Upload failed: L’opération n’a pas pu s’achever. (erreur CKErrorDomain 25.)"),
                nslog("Upload failed: 操作を完了できませんでした。（CKErrorDomainエラー25）"),
             ]) { match in event(match, code: match.int("code")) },
        Rule("ckerror-code-name", .ckError, .ckErrorRequestFailed,
             #"(?<before>[^\n]{0,2000}?)\bCKError(?:\.Code)?\.(?<codeName>[a-z][A-Za-z]{3,40})\b"#,
             samples: [
                nslog("Could not save trail: CKError.quotaExceeded"),
                syncEngine("handleEvent: sentRecordZoneChanges failed with CKError.Code.serverRecordChanged for Trail-17"),
             ]) { match in event(match, code: match["codeName"].flatMap { name in CKErrorCode.all.first { $0.name == name }?.code }) },
        // Not an error but the account's status, as the app prints what CKContainer.accountStatus
        // answered: no usable account means nothing syncs. The word `status` is looked behind
        // for: the rule is filed under the status's rarer words.
        Rule("ckerror-account-status", .ckError, .ckErrorAccount,
             #"(?<before>[^\n]{0,300}?)(?<=[Ss]tatus|[Ss]tatus\.|[Ss]tatus:[ ]|[Ss]tatus:[ ]\.|[Ss]tatus=|[Ss]tatus[ ]|[Ss]tatus[ ]is[ ]|[Ss]tatus[ ]is[ ]\.)(?<status>noAccount|NoAccount|restricted|Restricted|temporarilyUnavailable|TemporarilyUnavailable)\b"#,
             samples: [
                nslog("Account status: noAccount"),
                syncEngine("Sync stopped: CKAccountStatus.noAccount"),
                nslog("iCloud unavailable (CKAccountStatusNoAccount), sync paused"),
             ]) { match in
            let status = match["status"].map { $0.prefix(1).lowercased() + $0.dropFirst() } ?? "noAccount"
            let described = CKErrorDescription(name: "account status " + status)
            var fields = FieldList()
            fields.add("ckError", described.name)
            fields.add(match.error())
            // What the app said, through the status (`Account status: noAccount`), its
            // `log show` tag left out.
            var said = Substring(match["before"] ?? "")
            if said.hasPrefix("["), let close = said.firstIndex(of: "]") { said = said[said.index(after: close)...] }
            fields.add("causeText", String(said.drop { $0 == " " || $0 == "\t" }) + (match["status"] ?? status))
            return .message(.ckErrorAccount, fields.items)
        },
    ].map { $0.producing(CKErrorJudgement.kinds) }

    private static let daemonSigns: [StaticString] = ["NSCocoaErrorDomain:409", "Sandbox restriction", "connecting to CloudKit daemon", "com.apple.cloudd"]

    /// The event of a record that prints a CKError: its errors read (every description, each
    /// partial-error entry), judged by their codes; `code` is the one the rule read when the
    /// record prints no description.
    static func event(_ match: RuleMatch, code: Int?) -> Event {
        let bytes = match.messageBytes
        let report = CloudKitErrors.report(in: bytes)
        var errors = report.errors
        if errors.isEmpty, let code { errors = [CKErrorDescription(name: CKErrorCode.name(of: code) ?? "CKError \(code)", code: code)] }
        let daemon = daemonSigns.contains { sign in
            ByteSearch.firstOffset(of: UnsafeRawBufferPointer(start: sign.utf8Start, count: sign.utf8CodeUnitCount), in: bytes) != nil
        }
        guard let (kind, error) = CKErrorJudgement.judge(errors, daemonUnreachable: daemon) else {
            return .message(.ckErrorRequestFailed, [])
        }
        var fields = FieldList()
        fields.add("code", error.code)
        fields.add("internalCode", error.internalCode)
        fields.add("ckError", error.name)
        fields.add(match.error())
        fields.items += report.fields
        if report.errors.isEmpty { fields.add("ckErrors", .list(errors.map(\.value))) }
        fields.add("causeText", sentence(match, errors, judged: error))
        return .message(kind, fields.items)
    }

    /// The record in words: what the app said before the error, then the error by name and
    /// codes with its message; a partial failure with how many entries failed and the one it is
    /// judged by.
    static func sentence(_ match: RuleMatch, _ errors: [CKErrorDescription], judged: CKErrorDescription) -> String {
        var said = ""
        if var before = match["before"] {
            // A `log show` line's `[subsystem:category]` tag is no part of what was said.
            if before.hasPrefix("["), let close = before.firstIndex(of: "]") { before = String(before[before.index(after: close)...]) }
            let trimmed = before.trimmingCharacters(in: " \t:\"'-=")
            if !trimmed.isEmpty, trimmed.count <= 120 { said = trimmed + ": " }
        }
        func told(_ error: CKErrorDescription) -> String {
            CKErrorJudgement.label(error) + ((error.serverMessage ?? error.message).map { ": \($0)" } ?? "")
        }
        guard let outer = errors.first else { return said }
        if outer != judged, outer.code == 2 {
            let entries = errors.count - 1
            return said + CKErrorJudgement.label(outer) + ", \(entries) entr\(entries == 1 ? "y" : "ies"); judged by " + told(judged)
        }
        return said + told(judged)
    }
}
