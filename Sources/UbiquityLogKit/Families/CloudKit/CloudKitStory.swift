// The CloudKit family's part of the summary: set-up per store, requests by type joined from
// `Executing:` to `Finished request:` by their id, exports and imports, throttles told as
// waiting, the account, teardowns, and each distinct failure cause once with its count and the
// records it affected; and the verdict it gives each input.

/// What the mirroring records of a run say happened.
public struct CloudKitStory: Sendable {
    public struct StoreSetup: Sendable, Equatable {
        public var input: String
        /// The store's file name (from its URL) or its identifier.
        public var store: String
        public var outcome: String  // "succeeded", "failed", "enqueued"
        public var line: Int
        public var cause: String?
    }

    public struct RequestTally: Sendable, Equatable {
        public var type: String
        public var started = 0
        public var succeeded = 0
        public var failed = 0
        public var cancelled = 0
        /// Ended by a throttle: waiting for the retry-after, not failed.
        public var waiting = 0
        /// Finished requests whose start was seen, and their durations.
        public var timed = 0
        public var totalMilliseconds = 0
        public var longestMilliseconds = 0
        /// Started and never finished by the end of their input.
        public var unfinished = 0
    }

    public struct Cause: Sendable, Equatable {
        public var cause: CloudKitCause
        /// One sentence: `export blocked: field CD_rating of record type CD_Recipe is not in the production schema`.
        public var text: String
        /// Records that reported it, and the distinct records (partial-error entries) it affected.
        public var reports = 0
        public var records: Set<String> = []
        /// Records it named past `CloudKitTracker.maxCauseRecords` (each time one not kept).
        public var recordsNotKept = 0
        public var input: String
        public var line: Int
        public var kind: EventKind
        /// Seconds CloudKit asked to wait before a retry (`Retry after`), the latest given.
        public var retryAfter: String?

        /// `… (3 records)` / `… (reported 2 times)` / `… (retry after 342.0 s)`.
        public var counted: String {
            var parts: [String] = []
            if !records.isEmpty { parts.append("\(records.count) record\(records.count == 1 ? "" : "s")") }
            if recordsNotKept > 0 { parts.append("\(recordsNotKept) more named, not told apart") }
            if reports > 1 { parts.append("reported \(reports) times") }
            if let retryAfter, !text.contains("retry after") { parts.append("retry after \(retryAfter) s") }
            return parts.isEmpty ? text : text + " (" + parts.joined(separator: ", ") + ")"
        }
    }

    public var records = 0
    public var echoes = 0
    /// Store set-ups, the first `RunSummary.maxKeptFindings` of them; the counts are exact.
    public var stores: [StoreSetup] = []
    public var setupsSucceeded = 0
    public var setupsFailed = 0
    public var requests: [RequestTally] = []
    public var exportsBegan = 0
    public var exportsFinished = 0
    public var objectsToExport = 0
    public var importsScheduled = 0
    public var importsBegan = 0
    public var importsApplied = 0
    public var pushes = 0
    public var throttles = 0
    public var deferrals = 0
    /// Whether a request succeeded after the last throttle (the wait ended).
    public var throttleCleared = true
    public var retryAfter: String?
    /// The account's states as they changed, and the teardowns: the first
    /// `RunSummary.maxKeptFindings` of each, so that memory does not grow with the log.
    public var account: [String] = []
    public var teardowns: [String] = []
    /// Failure causes, the first `RunSummary.maxKeptFindings` of them, and how many reports
    /// named causes past them.
    public var causes: [Cause] = []
    public var causeReportsNotListed = 0
}
