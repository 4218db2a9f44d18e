// The CloudKit story in words (rows of the text and Markdown summaries) and as JSON (its
// member of the summary's `families`), shown when the run holds mirroring records.

extension CloudKitStory: FamilyStory {
    public func rows(in summary: RunSummary) -> [SummaryText.Row] {
        func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        let started = requests.reduce(0) { $0 + $1.started }
        var value = "\(counted(records, "record")); set-up: \(setupsSucceeded) succeeded, \(setupsFailed) failed; \(counted(started, "request"))"
        if echoes > 0 { value += "; \(counted(echoes, "Xcode echo")) counted once" }
        var details: [String] = stores.map { store in
            "store \(store.store): set-up \(store.outcome) at \(store.input):\(store.line)" + (store.cause.map { ": \($0)" } ?? "")
        }
        for tally in requests {
            var parts = ["\(tally.started) started", "\(tally.succeeded) succeeded"]
            if tally.failed > 0 { parts.append("\(tally.failed) failed") }
            if tally.cancelled > 0 { parts.append("\(tally.cancelled) cancelled") }
            if tally.waiting > 0 { parts.append("\(tally.waiting) waiting (throttled)") }
            if tally.unfinished > 0 { parts.append("\(tally.unfinished) unfinished") }
            var line = "\(tally.type) requests: " + parts.joined(separator: ", ")
            if tally.timed > 0 {
                line += "; \(SummaryText.duration(tally.totalMilliseconds / tally.timed)) on average, longest \(SummaryText.duration(tally.longestMilliseconds))"
            }
            details.append(line)
        }
        if exportsBegan > 0 || exportsFinished > 0 || objectsToExport > 0 {
            details.append("exports: \(exportsBegan) began, \(exportsFinished) finished, \(counted(objectsToExport, "object")) found needing export")
        }
        if importsScheduled + importsBegan + importsApplied + pushes > 0 {
            details.append("imports: \(importsScheduled) scheduled, \(importsBegan) began, \(importsApplied) applied; \(pushes) push\(pushes == 1 ? "" : "es") received")
        }
        if throttles > 0 {
            details.append("throttled \(counted(throttles, "time")): waiting" + (retryAfter.map { " (retry after \($0) s)" } ?? "")
                           + (throttleCleared ? ", then requests succeeded again" : ", still waiting at the end"))
        }
        if deferrals > 0 { details.append("the system deferred \(counted(deferrals, "activity")) while another ran (Activity Group Policy)") }
        if !account.isEmpty { details.append("account: " + account.joined(separator: ", then ")) }
        details += teardowns.map { "teardown: \($0)" }
        var rows = [SummaryText.Row(label: "cloudkit", value: value, details: details)]
        if !causes.isEmpty {
            let more = causeReportsNotListed > 0 ? " (and \(causeReportsNotListed) more reports of causes past the first \(causes.count), not listed)" : ""
            rows.append(SummaryText.Row(label: "cloudkit causes", value: "\(causes.count)" + more,
                                        details: causes.map { "\($0.input):\($0.line)  \($0.kind.id)  \($0.counted)" }))
        }
        return rows
    }

    public var fields: [Field] {
        var fields = FieldList()
        fields.add("echoes", echoes)
        fields.add("stores", .list(stores.map { store in
            var parts = FieldList()
            parts.add("input", store.input)
            parts.add("store", store.store)
            parts.add("setup", store.outcome)
            parts.add("line", store.line)
            parts.add("cause", store.cause)
            return .object(parts.items)
        }))
        fields.add("requests", .list(requests.map { tally in
            var parts = FieldList()
            parts.add("type", tally.type)
            parts.add("started", tally.started)
            parts.add("succeeded", tally.succeeded)
            parts.add("failed", tally.failed)
            parts.add("cancelled", tally.cancelled)
            parts.add("waiting", tally.waiting)
            parts.add("unfinished", tally.unfinished)
            if tally.timed > 0 {
                parts.add("averageMilliseconds", tally.totalMilliseconds / tally.timed)
                parts.add("longestMilliseconds", tally.longestMilliseconds)
            }
            return .object(parts.items)
        }))
        fields.add("exports", .object([Field("began", .int(exportsBegan)), Field("finished", .int(exportsFinished)),
                                       Field("objectsFound", .int(objectsToExport))]))
        fields.add("imports", .object([Field("scheduled", .int(importsScheduled)), Field("began", .int(importsBegan)),
                                       Field("applied", .int(importsApplied)), Field("pushes", .int(pushes))]))
        var throttle = FieldList()
        throttle.add("count", throttles)
        throttle.add("deferrals", deferrals)
        throttle.add("cleared", .bool(throttleCleared))
        throttle.add("retryAfter", retryAfter)
        fields.add("throttles", .object(throttle.items))
        fields.add("account", .list(account.map { .string($0) }))
        fields.add("teardowns", .list(teardowns.map { .string($0) }))
        fields.add("causes", .list(causes.map { cause in
            var parts = FieldList()
            parts.add("cause", cause.cause.rawValue)
            parts.add("kind", cause.kind.id)
            parts.add("text", cause.text)
            parts.add("reports", cause.reports)
            parts.add("records", cause.records.count)
            if cause.recordsNotKept > 0 { parts.add("recordsNotKept", cause.recordsNotKept) }
            parts.add("input", cause.input)
            parts.add("line", cause.line)
            parts.add("retryAfter", cause.retryAfter)
            return .object(parts.items)
        }))
        if causeReportsNotListed > 0 { fields.add("causeReportsNotListed", causeReportsNotListed) }
        return fields.items
    }
}
