/// The summary as one JSON object (the last line of `--format jsonl`, all of `--format json`).
public enum JSONSummary {
    public static func text(_ summary: RunSummary) -> String {
        var object = JSONObject()
        object.add("type", "summary")
        object.add("lines", summary.lines)
        object.add("records", summary.records)
        object.add("syncRecords", summary.syncRecords)
        object.add("unhandled", summary.unhandled)
        object.add("matchLimitHits", summary.matchLimitHits)
        object.add("truncatedRecords", summary.truncatedRecords)
        object.add("outsideTimeWindow", summary.outsideTimeWindow)
        object.add("otherProcesses", summary.otherProcesses)
        object.addRaw("processes", "[" + summary.processes.map { JSON.object($0.fields) }.joined(separator: ",") + "]")
        object.addRaw("systemStores", "[" + summary.systemStores.map { JSON.object($0.judgementFields) }.joined(separator: ",") + "]")
        object.addRaw("families", JSON.object(summary.families.map { Field($0.id.rawValue, .object($0.fields)) }))
        object.add("verdict", summary.verdict.rawValue)
        if let reason = summary.verdictReason { object.add("verdictReason", reason) }
        object.addRaw("verdicts", "[" + summary.verdicts.map { JSON.object($0.fields) }.joined(separator: ",") + "]")
        if let outcome = summary.outcome { object.addRaw("outcome", JSON.object(outcome.fields)) }
        object.add("errors", summary.errors)
        object.add("warnings", summary.warnings)
        object.addRaw("inputs", "[" + summary.inputs.map(JSON.quote).joined(separator: ",") + "]")
        object.addRaw("unreadableInputs", "[" + summary.unreadableInputs.map { failure in
            var item = JSONObject()
            item.add("input", failure.input)
            item.add("reason", failure.reason)
            return item.text
        }.joined(separator: ",") + "]")
        return object.text
    }
}
