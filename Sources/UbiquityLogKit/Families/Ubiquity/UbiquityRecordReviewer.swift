// The ubiquity family's look at its records in log order. OS X 10.7 and iOS 5 and 6 report
// one failed import twice: the operation logs the exception
// that stopped it with the log it was importing (`Error importing transaction log: …`), then
// the importer reports the operation's failure as error 134060, whose URL the operation lost
// (`While trying to import the log file at the URL: (null)`). The second report is linked to
// the log the first named, so that every import failure names its log.

/// Links an import failure that names no log to the log an exception stopped just before on
/// the same thread of the same process, and tells a system framework's store apart from the
/// app's (`SystemStores`).
final class UbiquityRecordReviewer: RecordReviewer {
    let marker = Marker.ubiquity
    /// `CoreData: error:` records name stores too (a framework's store that cannot be added):
    /// they are told apart as well. (Its interrupts change nothing: links are held by thread.)
    let otherMarkers = [Marker.coreDataError]
    /// The log each thread's last exception-stopped import named, for the current input, keyed
    /// by process and thread. Used by the classifying stage alone, one record at a time.
    @exclusivity(unchecked) private var stopped: [String: String] = [:]
    @exclusivity(unchecked) private var input: String?

    func review(_ record: Record, _ classification: inout Classification) {
        if record.input != input {
            input = record.input
            stopped = [:]
        }
        defer {
            if let recast = SystemStores.recast(record, classification) { classification.event = recast }
        }
        switch classification.event {
        case .message(.importFailed, let fields):
            if let log = fields.first(where: { $0.name == "log" })?.value.text { stopped[Self.key(record)] = log }
        case .importFailed(nil, let error):
            let key = Self.key(record)
            guard let log = stopped[key] else { return }
            // A record shown before its writer finished comes again whole: it keeps the link.
            if !record.revision.isPreview { stopped[key] = nil }
            classification.event = .importFailed(log: log, error: error)
        default:
            break
        }
    }

    /// Records of other markers between the two reports (the app's lines) do not part them:
    /// the link is held by thread until the input ends.
    func interrupt() {}

    private static func key(_ record: Record) -> String {
        (record.string(.process) ?? "") + "\u{1}" + (record.string(.thread) ?? "")
    }
}
