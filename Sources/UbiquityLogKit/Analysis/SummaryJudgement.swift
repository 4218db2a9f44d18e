// The summary's judgement, once the run ends: each process's, each input's and the run's
// verdict from the counts and findings `SummaryBuilder` kept and the families' endings.

extension SummaryBuilder {
    /// A process's verdict with one more family's: the worse one, its evidence first.
    static func merge(_ verdict: (verdict: Verdict, evidence: [String]), _ own: (verdict: Verdict, evidence: [String])) -> (verdict: Verdict, evidence: [String]) {
        if own.verdict > verdict.verdict { return (own.verdict, own.evidence + (verdict.verdict == .healthy ? [] : verdict.evidence)) }
        return (verdict.verdict, verdict.evidence + own.evidence)
    }

    /// The verdict of each process, each input and the run (see `Verdict`):
    /// - a process with no sync records is not judged (it is another program's);
    /// - a process's verdict is the worst its families' trackers give it, unless that is not
    ///   broken and at least half of a family's records were not recognised: then unknown;
    /// - an input's is the worst of its judged processes': every one but known system daemons
    ///   (`SystemProcesses`), or those `--process` named; with none, no evidence;
    /// - an input that could not be read has no evidence, or worse if what was read says so;
    /// - the run's is the worst of its inputs'.
    func judge(_ summary: inout RunSummary, _ endings: [FamilyEnding]) {
        let selected = Set(summary.selectedProcesses)
        let stores = endings.flatMap(\.systemStores)
        summary.systemStores = stores
        var processes: [ProcessSummary] = []
        for (index, var group) in countedGroups.enumerated() where group.syncRecords > 0 {
            // A process whose only sync records are about system frameworks' stores has none of
            // its own to judge.
            let apart = groupStoreRecords[index]
            if apart > 0, apart >= group.syncRecords { continue }
            var decided: (verdict: Verdict, evidence: [String]) = (.healthy, [])
            for ending in endings {
                if let own = ending.verdict(index, summary.namesProcesses) { decided = SummaryBuilder.merge(decided, own) }
            }
            if decided.verdict == .healthy, let held = unexcused(index, endings) {
                decided = (.degraded, [held])
            }
            group.verdict = decided.verdict
            group.evidence = decided.evidence
            // Weighed on the process's own records: the stores' are recognised records of the
            // family that made `system-store`, and would make up for the app's unrecognised ones.
            if decided.verdict != .broken, let family = group.families
                .map({ $0.family == EventKind.systemStore.family ? $0.less(recognised: apart) : $0 })
                .first(where: \.isMostlyUnrecognised) {
                group.verdict = .unknown
                group.reason = "\(family.unhandled) of \(family.records) \(family.recordNoun) records not recognised"
            }
            group.isJudged = selected.isEmpty ? !SystemProcesses.isDaemon(group.process) : true
            processes.append(group)
        }
        summary.processes = processes

        let unreadable = Dictionary(summary.unreadableInputs.map { ($0.input, $0) }, uniquingKeysWith: { first, _ in first })
        // Grouped once, in their order: a run of many inputs must not look through every
        // input's processes for each input.
        let processesByInput = Dictionary(grouping: processes, by: \.input)
        let storesByInput = Dictionary(grouping: stores, by: \.input)
        var verdicts: [InputVerdict] = []
        for input in summary.inputs {
            let own = processesByInput[input] ?? []
            let judged = own.filter(\.isJudged)
            let ownStores = storesByInput[input] ?? []
            let lines = summary.linesPerInput[input] ?? 0
            var verdict: InputVerdict
            if judged.isEmpty {
                verdict = InputVerdict(input: input, verdict: .noEvidence, evidence: [],
                                       reason: SummaryBuilder.noEvidence(lines: lines, selected: summary.selectedProcesses, daemons: own, stores: ownStores))
            } else if judged.count == 1, own.count == 1 {
                verdict = InputVerdict(input: input, verdict: judged[0].verdict, evidence: judged[0].evidence, reason: judged[0].reason)
            } else {
                let worst = judged.map(\.verdict).max() ?? .healthy
                let deciding = judged.first { $0.verdict == worst }
                verdict = InputVerdict(input: input, verdict: worst, evidence: deciding?.evidence ?? [],
                                       reason: deciding?.reason.map { "\(deciding?.name ?? ""): \($0)" })
            }
            // A daemon's evidence is shown also when it is the input's only process with sync
            // records: the input's verdict (no evidence) does not tell what it met.
            if own.count > 1 || (judged.isEmpty && !own.isEmpty) { verdict.processes = own }
            verdict.systemStores = ownStores
            if let failure = unreadable[input] {
                verdict.verdict = max(verdict.verdict, .noEvidence)
                if verdict.verdict == .noEvidence { verdict.reason = "read failed after \(lines) line\(lines == 1 ? "" : "s"): \(failure.reason)" }
            }
            verdicts.append(verdict)
        }
        let inputs = Set(summary.inputs)
        for failure in summary.unreadableInputs where !inputs.contains(failure.input) {
            verdicts.append(InputVerdict(input: failure.input, verdict: .noEvidence, evidence: [], reason: "could not be read: \(failure.reason)"))
        }
        summary.verdicts = verdicts
        summary.verdict = verdicts.map(\.verdict).max() ?? .noEvidence
        if verdicts.isEmpty {
            summary.verdictReason = "no input was read"
        } else if verdicts.count == 1 {
            summary.verdictReason = verdicts[0].reason
        } else if summary.verdict == .noEvidence, verdicts.allSatisfy({ $0.verdict == .noEvidence && $0.processes.isEmpty && $0.systemStores.isEmpty }),
                  summary.unreadableInputs.isEmpty {
            summary.verdictReason = SummaryBuilder.noEvidence(lines: summary.lines, selected: summary.selectedProcesses, daemons: [])
        } else if let deciding = verdicts.first(where: { $0.verdict == summary.verdict }), let reason = deciding.reason {
            summary.verdictReason = "\(deciding.input): \(reason)"
        }
    }

    /// The warning or error that keeps group `index` from being `healthy`, cited: the first
    /// one `BenignFindings` does not excuse, or else the latest one it excuses only when it
    /// clears, when no success of its family in the group came after it.
    private func unexcused(_ index: Int, _ endings: [FamilyEnding]) -> String? {
        func cite(_ finding: Finding, _ tail: String = "") -> String {
            "\(finding.input):\(finding.line) \(finding.kind.id): \(finding.message)\(tail)"
        }
        if let finding = groupUnexcused[index] { return cite(finding) }
        guard let finding = groupUncleared[index] else { return nil }
        let family = families.firstIndex { $0.id == finding.kind.family }
        let success = family.flatMap { endings[$0].lastSuccess(index) } ?? 0
        return success > finding.line ? nil : cite(finding, ", still waiting at the end of the log")
    }

    /// `no Core Data sync records in 412 lines`, `… from Journal in 412 lines`, or `no Core
    /// Data sync records from an app in 412 lines; system daemons' not judged: kbd[87] (6)`
    /// (and `system stores', not judged: Journal[210] store /var/…/UserDictionary.sqlite (2)`).
    static func noEvidence(lines: Int, selected: [String], daemons: [ProcessSummary], stores: [SystemStore] = []) -> String {
        let linesText = "\(lines) line\(lines == 1 ? "" : "s")"
        if !selected.isEmpty { return "no Core Data sync records from \(selected.joined(separator: ", ")) in \(linesText)" }
        if daemons.isEmpty && stores.isEmpty { return "no Core Data sync records in \(linesText)" }
        let shown = SummaryText.maxVerdictProcesses
        func listed(_ names: [String]) -> String {
            names.prefix(shown).joined(separator: ", ") + (names.count > shown ? " and \(names.count - shown) more" : "")
        }
        var text = "no Core Data sync records from an app in \(linesText)"
        if !daemons.isEmpty { text += "; system daemons', not judged: " + listed(daemons.map { "\($0.name) (\($0.syncRecords))" }) }
        if !stores.isEmpty { text += "; system stores', not judged: " + listed(stores.map { "\($0.name) (\($0.records))" }) }
        return text
    }
}
