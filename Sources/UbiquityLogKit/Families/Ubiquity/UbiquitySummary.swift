// The ubiquity family's story in words (rows of the text and Markdown summaries) and as JSON
// (its member of the summary's `families`).

extension UbiquityStory: FamilyStory {
    public func rows(in summary: RunSummary) -> [SummaryText.Row] {
        var rows: [SummaryText.Row] = []
        let loads = storeLoads
        rows.append(SummaryText.Row(label: "store loads", value: "\(loads.attempted) attempted, \(loads.totalSucceeded) succeeded\(Self.byLocation(loads.succeeded)), \(loads.totalFailed) failed\(Self.byLocation(loads.failed))",
                        details: Self.described(storeLoadAttempts, namingProcess: summary.hasSeveralSyncProcesses, Self.describe)))
        if let first = localStorageSwitches.first {
            let more = localStorageSwitches.count > 1 ? " (\(localStorageSwitches.count) times)" : ""
            rows.append(SummaryText.Row(label: "local storage", value: "fallback store, then the iCloud store" + (first.delayMilliseconds.map { " \(SummaryText.duration($0)) later" } ?? "") + more,
                            details: localStorageSwitches.map { "\($0.input):\($0.fallbackLine) Using local storage: 1, :\($0.cloudLine) Using local storage: 0" + ($0.delayMilliseconds.map { " (\(SummaryText.duration($0)))" } ?? "") }))
        }
        rows.append(SummaryText.Row(label: "transactions", value: "\(transactionsExported) exported, \(transactionsImported) imported"))
        rows.append(SummaryText.Row(label: "object changes", value: "\(objectChangesExported) exported, \(objectChangesImported) imported",
                        details: entities.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.exported) exported, \($0.value.imported) imported" }))
        if !transactionLogs.isEmpty {
            let imports = transactionLogs.flatMap(\.imports)
            let written = transactionLogs.filter { $0.writtenIn != nil }.count
            let outcomes = [TransactionLogStory.Import.Outcome.started, .applied, .alreadyImported, .skipped, .failed].compactMap { outcome -> String? in
                let count = imports.filter { $0.outcome == outcome }.count
                return count == 0 ? nil : "\(count) \(outcome.rawValue)"
            }
            rows.append(SummaryText.Row(label: "transaction logs", value: "\(transactionLogs.count): " + (["\(written) written"] + outcomes).joined(separator: ", "),
                            details: transactionLogs.filter { $0.imports.contains { [.failed, .skipped, .started].contains($0.outcome) } }.map(Self.describe)))
        }
        rows.append(SummaryText.Row(label: "import failures", value: "\(importFailureCount)", evidence: importFailures))
        rows.append(SummaryText.Row(label: "corruption", value: "\(corruptionReportCount) report\(corruptionReportCount == 1 ? "" : "s")",
                        evidence: corruptionReports))
        if devices.count > 1 {
            rows.append(SummaryText.Row(label: "devices", value: "\(devices.count) inputs, one device each",
                            details: describe(devices, in: summary)))
        }
        if !correlations.isEmpty {
            rows.append(SummaryText.Row(label: "across devices", value: "\(correlations.count) link\(correlations.count == 1 ? "" : "s")",
                            details: correlations))
        }
        if !systemStores.isEmpty {
            rows.append(SummaryText.Row(label: "system stores", value: "\(systemStores.count) in the app's process, outside its container: not judged",
                            details: systemStores.map { store in
                                let process = store.process.map { " \($0)" } ?? ""
                                return "\(store.input):\(store.line)\(process) \(store.store): \(store.records) \(store.severity.rawValue)\(store.records == 1 ? "" : "s"); \(store.verdict.words)"
                            }))
        }
        if !incidents.isEmpty {
            let outcomes = Incident.Outcome.allCases.compactMap { outcome -> String? in
                let count = incidents.filter { $0.outcome == outcome }.count
                return count == 0 ? nil : "\(count) \(outcome.rawValue)"
            }
            rows.append(SummaryText.Row(label: "incidents", value: "\(incidents.count) (" + outcomes.joined(separator: ", ") + ")",
                            details: Self.described(incidents, namingProcess: summary.hasSeveralSyncProcesses, Self.describe)))
        }
        return rows
    }

    /// `describe` of each of `items`, made when the line is read (see `SummaryText.Lines`).
    static func described<Item: Sendable>(_ items: [Item], namingProcess: Bool,
                                          _ describe: @escaping @Sendable (Item, Bool) -> String) -> SummaryText.Lines {
        SummaryText.Lines(count: items.count) { describe(items[$0], namingProcess) }
    }

    /// Each device's own story: `a.log: peer mobile~6F2C…; store 9B8C…; 2 loads (2 succeeded);
    /// 1 import failure; 1 corruption report; 1 incident (recovered); degraded`. What an input
    /// holds is grouped once: a run of many inputs must not look through every input's loads
    /// and findings for each device.
    func describe(_ devices: [Device], in summary: RunSummary) -> SummaryText.Lines {
        let loadsByInput = Dictionary(grouping: storeLoadAttempts, by: \.input)
        let incidentsByInput = Dictionary(grouping: incidents, by: \.input)
        let importFailuresByInput = Dictionary(importFailures.map { ($0.input, 1) }, uniquingKeysWith: +)
        let corruptionsByInput = Dictionary(corruptionReports.map { ($0.input, 1) }, uniquingKeysWith: +)
        let verdictByInput = Dictionary(summary.verdicts.map { ($0.input, $0.verdict) }, uniquingKeysWith: { first, _ in first })
        @Sendable func counted(_ count: Int, _ noun: String) -> String? { count == 0 ? nil : "\(count) \(noun)\(count == 1 ? "" : "s")" }
        // A few of each on the line; every kept one is in the JSON summary.
        @Sendable func few(_ names: [String], more: Int) -> String {
            let shown = 5
            let left = names.count - min(names.count, shown) + more
            return names.prefix(shown).joined(separator: ", ") + (left > 0 ? " and \(left) more" : "")
        }
        return SummaryText.Lines(count: devices.count) { index in
            let device = devices[index]
            var parts: [String] = []
            if !device.peers.isEmpty { parts.append("peer " + few(device.peers, more: device.morePeers)) }
            if !device.storeUUIDs.isEmpty { parts.append("store " + few(device.storeUUIDs, more: device.moreStoreUUIDs)) }
            let loads = loadsByInput[device.input] ?? []
            if let text = counted(loads.count, "load") {
                let outcomes = [StoreLoad.Outcome.succeeded, .failed, .unavailable, .unfinished].compactMap { outcome -> String? in
                    let count = loads.filter { $0.outcome == outcome }.count
                    return count == 0 ? nil : "\(count) \(outcome.rawValue)"
                }
                parts.append(text + " (" + outcomes.joined(separator: ", ") + ")")
            }
            parts += [counted(importFailuresByInput[device.input] ?? 0, "import failure"),
                      counted(corruptionsByInput[device.input] ?? 0, "corruption report")].compactMap { $0 }
            let incidents = incidentsByInput[device.input] ?? []
            if let text = counted(incidents.count, "incident") {
                parts.append(text + " (" + incidents.map(\.outcome.rawValue).joined(separator: ", ") + ")")
            }
            if let verdict = verdictByInput[device.input] { parts.append(verdict.rawValue) }
            return "\(device.input): " + parts.joined(separator: "; ")
        }
    }

    /// Import outcomes of one log listed with their places, at most this many each (a log
    /// imported over and over is one line of counts, not hundreds of places).
    static let maxImportPlaces = 3

    /// `0C9B….1.cdt (peer mobile~A3D1…): written at b.log:40; failed at a.log:85`, or with
    /// many imports `…: 7 failed at a.log:85, a.log:90, a.log:97 and 4 more; 77 already-imported`.
    /// Failed, skipped and unfinished imports name their places; the others only when few.
    static func describe(_ story: TransactionLogStory) -> String {
        typealias Outcome = TransactionLogStory.Import.Outcome
        let text = story.name + (story.peer.map { " (peer \($0))" } ?? "") + ":"
        var parts: [String] = []
        if let input = story.writtenIn, let line = story.writtenLine { parts.append("written at \(input):\(line)") }
        for outcome in [Outcome.failed, .skipped, .started, .applied, .alreadyImported] {
            let entries = story.imports.filter { $0.outcome == outcome }
            guard !entries.isEmpty else { continue }
            let count = entries.count == 1 ? "" : "\(entries.count) "
            guard [.failed, .skipped, .started].contains(outcome) || entries.count <= maxImportPlaces else {
                parts.append(count + outcome.rawValue)
                continue
            }
            let places = entries.prefix(maxImportPlaces).map { entry in
                "\(entry.input):" + (entry.startLine.map { "\($0)-" } ?? "") + "\(entry.line)"
            }
            let more = entries.count > maxImportPlaces ? " and \(entries.count - maxImportPlaces) more" : ""
            parts.append(count + outcome.rawValue + " at " + places.joined(separator: ", ") + more)
        }
        return text + " " + parts.joined(separator: "; ")
    }

    /// `a.log:85 import-failed, 3 problems: recovered (a.log:120 store-load-succeeded)`
    static func describe(_ incident: Incident, namingProcess: Bool = false) -> String {
        var text = "\(incident.input):\(incident.opening.line) " + (namingProcess ? ProcessSummary.name(incident.process, pids: incident.opening.pid.map { [$0] } ?? []) + " " : "") + incident.opening.kind.id
        if incident.problemCount > 1 { text += ", \(incident.problemCount) problems" }
        text += ": \(incident.outcome.rawValue)"
        if let recovery = incident.recovery { text += " (:\(recovery.line) \(recovery.kind.id))" }
        return text
    }

    /// `fixtures/a.log:12  cloud store  failed after 1.2 s: NSCocoaErrorDomain 134080 (retry; after cloud-switched)`
    static func describe(_ load: StoreLoad, namingProcess: Bool = false) -> String {
        var store = load.store == .unknown ? "a store" : "\(load.store.rawValue) store"
        if let name = Extract.storeName(load.storeURL) { store += " \(name)" }
        var text = "\(load.input):\(load.line)  " + (namingProcess ? (load.process ?? "(no process)") + "  " : "") + "\(store)  \(load.outcome.rawValue)"
        if let milliseconds = load.durationMilliseconds {
            text += (load.outcome == .succeeded ? " in " : " after ") + SummaryText.duration(milliseconds)
        }
        if let error = load.error { text += ": " + error.oneLine }
        var notes: [String] = []
        if load.isRetry { notes.append("retry") }
        if !load.setupRetryDelays.isEmpty { notes.append("set-up retried after " + load.setupRetryDelays.map { "\($0) s" }.joined(separator: ", ")) }
        if !load.after.isEmpty { notes.append("after " + load.after.joined(separator: ", ")) }
        if !notes.isEmpty { text += " (" + notes.joined(separator: "; ") + ")" }
        return text
    }

    private static func byLocation(_ counts: [StoreLocation: Int]) -> String {
        let parts = StoreLocation.allCases.compactMap { location -> String? in
            guard let count = counts[location], count > 0 else { return nil }
            return "\(location == .unknown ? "other" : location.rawValue) \(count)"
        }
        return parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
    }
}

extension UbiquityStory {
    public var fields: [Field] {
        func exportedImported(_ exported: Int, _ imported: Int) -> FieldValue {
            .object([Field("exported", .int(exported)), Field("imported", .int(imported))])
        }
        var loads = [Field("attempted", .int(storeLoads.attempted)), Field("succeeded", .int(storeLoads.totalSucceeded)),
                     Field("failed", .int(storeLoads.totalFailed))]
        for location in StoreLocation.allCases {
            loads.append(Field(location.rawValue, .object([Field("succeeded", .int(storeLoads.succeeded[location] ?? 0)),
                                                          Field("failed", .int(storeLoads.failed[location] ?? 0))])))
        }
        loads.append(Field("attempts", .list(storeLoadAttempts.map { .object($0.fields) })))
        return [
            Field("storeLoads", .object(loads)),
            Field("localStorageSwitches", .list(localStorageSwitches.map { .object($0.fields) })),
            Field("transactions", exportedImported(transactionsExported, transactionsImported)),
            Field("objectChanges", exportedImported(objectChangesExported, objectChangesImported)),
            Field("importFailures", .int(importFailureCount)),
            Field("corruptionReports", .int(corruptionReportCount)),
            Field("transactionLogs", .list(transactionLogs.map { .object($0.fields) })),
            Field("entities", .object(entities.sorted { $0.key < $1.key }.map { entity in
                Field(entity.key, exportedImported(entity.value.exported, entity.value.imported))
            })),
            Field("devices", .list(devices.map { .object($0.fields) })),
            Field("correlations", .list(correlations.map { .string($0) })),
            Field("incidents", .list(incidents.map { .object($0.fields) })),
            Field("systemStores", .list(systemStores.map { .object($0.fields) })),
        ]
    }
}

extension UbiquityStory {
    /// The incidents as a Markdown table, each with what to do.
    public func markdownSections(in summary: RunSummary, listing: Int) -> [String] {
        guard !incidents.isEmpty else { return [] }
        var lines = ["### Incidents", "", "| where | opened by | outcome | what to do |", "|---|---|---|---|"]
        for incident in incidents.prefix(listing) {
            let place = "\(incident.input):\(incident.opening.line)" + (summary.hasSeveralSyncProcesses ? " " + ProcessSummary.name(incident.process, pids: incident.opening.pid.map { [$0] } ?? []) : "")
            let recovery = incident.recovery.map { " (line \($0.line), \($0.kind.id))" } ?? ""
            let hint = Explanation.hint(for: incident.opening.kind).map { "\($0) (`parselogs explain \(incident.opening.kind.id)`)" } ?? ""
            lines.append("| \(MarkdownEscaping.code(place)) | \(MarkdownEscaping.code(incident.opening.kind.id)) | \(incident.outcome.rawValue)\(MarkdownEscaping.text(recovery)) | \(MarkdownEscaping.text(hint)) |")
        }
        if incidents.count > listing { lines += ["", "… and \(incidents.count - listing) more."] }
        lines.append("")
        return lines
    }
}
