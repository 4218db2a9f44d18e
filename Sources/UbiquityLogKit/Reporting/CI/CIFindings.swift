// What the annotating formats (GitHub, Xcode-style diagnostics, SARIF) report, in one list so
// that they cannot disagree: the verdict, unreadable inputs, inputs with no evidence, each
// finding at its input and line, and the kinds `--fail-on` names that keep no findings. Each
// item's level follows the severity of what it reports, and is `error` whenever the item is
// part of what fails the run (`RunOutcome`).

/// How loud an item is, in each format's own words.
public enum AnnotationLevel: Sendable, Equatable {
    case error, warning, note

    init(_ severity: Severity) {
        switch severity {
        case .error: self = .error
        case .warning: self = .warning
        case .info, .debug: self = .note
        }
    }

    /// `::error`, `::warning`, `::notice`.
    public var github: String {
        switch self {
        case .error: "error"
        case .warning: "warning"
        case .note: "notice"
        }
    }

    /// clang's and SwiftLint's word, and SARIF's `level`.
    public var diagnostic: String {
        switch self {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }
}

/// One annotation: where (an input and line, when there is one), what, and whether it is part
/// of what fails the run.
public struct CIFinding: Sendable, Equatable {
    public var level: AnnotationLevel
    public var file: String?
    public var line: Int?
    /// A kind id, or `verdict`, `unreadable-input`, `no-evidence`.
    public var rule: String
    /// `import-failed (Journal[412])`: the rule, with the process when the run saw several.
    public var title: String
    public var message: String
    public var failsTheRun: Bool
    /// The event kind the item reports, when it reports one.
    public var kind: EventKind?
}

/// The first record of each kind a reporter was shown, by kind id: where a kind `--fail-on`
/// names keeps no findings (info and debug events), its annotation points there.
public struct FirstRecords {
    public private(set) var byKind: [String: (input: String, line: Int, text: String)] = [:]

    public init() {}

    public mutating func note(_ item: ClassifiedRecord) {
        // A preview is not counted yet: the record comes again.
        guard !item.record.revision.isPreview else { return }
        let id = item.event.kind.id
        guard byKind[id] == nil else { return }
        let text = String(decoding: item.record.firstBodyLine, as: UTF8.self)
        byKind[id] = (item.record.input, item.record.firstLine, String(text.prefix(300)))
    }
}

public enum CIFindings {
    public static func items(_ summary: RunSummary, outcome: RunOutcome, firstRecords: FirstRecords) -> [CIFinding] {
        var items: [CIFinding] = []
        let verdictLevel: AnnotationLevel = outcome.verdictFails ? .error : (summary.verdict == .healthy ? .note : .warning)
        items.append(CIFinding(level: verdictLevel, rule: "verdict", title: "verdict",
                               message: SummaryText.verdictLines(summary).joined(separator: "\n"), failsTheRun: outcome.verdictFails))
        let reasons = Dictionary(summary.unreadableInputs.map { ($0.input, $0.reason) }, uniquingKeysWith: { first, _ in first })
        for input in outcome.unreadableInputs {
            let reason = reasons[input] ?? "could not be read"
            items.append(CIFinding(level: .error, file: input, rule: "unreadable-input", title: "unreadable input",
                                   message: "\(input): \(reason)", failsTheRun: true))
        }
        // By name: a run may read tens of thousands of inputs, every one without evidence.
        let sentences = Dictionary(summary.verdicts.map { ($0.input, $0.sentence) }, uniquingKeysWith: { first, _ in first })
        for input in outcome.noEvidenceInputs {
            let sentence = sentences[input] ?? "no evidence"
            items.append(CIFinding(level: .error, file: input, rule: "no-evidence", title: "no evidence",
                                   message: "\(input): \(sentence); every --fail-on but none fails on a log with no evidence (--allow-no-evidence passes it)",
                                   failsTheRun: true))
        }
        for (index, finding) in summary.findings.enumerated() {
            let fails = outcome.failingFindings.contains(index)
            // The process in the title when the run saw several (a device console).
            let process = summary.namesProcesses ? " (" + ProcessSummary.name(finding.process, pids: finding.pid.map { [$0] } ?? []) + ")" : ""
            items.append(CIFinding(level: fails ? .error : AnnotationLevel(finding.kind.severity), file: finding.input, line: finding.line,
                                   rule: finding.kind.id, title: finding.kind.id + process, message: finding.message,
                                   failsTheRun: fails, kind: finding.kind))
        }
        // Each system framework's store, judged apart: at its level by the worst of its records
        // that no benign entry excuses (a note when none is left), `error` when `--fail-on`
        // names its records.
        let failingStores = Set(outcome.failingSystemStores)
        for (index, store) in summary.systemStores.enumerated() {
            let fails = failingStores.contains(index)
            items.append(CIFinding(level: fails ? .error : AnnotationLevel(store.unexcused ?? .info), file: store.input, line: store.worstLine ?? store.line,
                                   rule: EventKind.systemStore.id, title: EventKind.systemStore.id + " (" + ProcessSummary.name(store.process, pids: store.pid.map { [$0] } ?? []) + ")",
                                   message: store.report, failsTheRun: fails, kind: .systemStore))
        }
        // Kinds `--fail-on` names that keep no findings (info and debug events) fail the run
        // too: one item each, at the first such record, with how many there were.
        let listed = Set(summary.findings.map(\.kind.id) + (summary.systemStores.isEmpty ? [] : [EventKind.systemStore.id]))
        for (id, count) in outcome.failingKinds.sorted(by: { $0.key < $1.key }) where !listed.contains(id) {
            var item = CIFinding(level: .error, rule: id, title: id, message: "\(count) \(id) (--fail-on \(outcome.failOn))", failsTheRun: true)
            if let first = firstRecords.byKind[id] {
                item.file = first.input
                item.line = first.line
                item.message += "; the first: " + first.text
            }
            items.append(item)
        }
        return items
    }
}
