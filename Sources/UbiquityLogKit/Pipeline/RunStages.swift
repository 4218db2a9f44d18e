// The run's three stages on three threads, so that a machine's second core does half the work:
//
//   caller's thread:  read(2) → lines → records (LineReader, RecordAssembler)
//   classifier:       records → events (time window, Classifier)
//   summariser:       events → summary and reporters (SummaryBuilder, Reporter)
//
// Records travel in batches (a few hundred, or 1 MB of text, or whatever one read(2) gave:
// on a live pipe that is a record or two, so nothing waits for a batch to fill). Each stage
// is one thread and each queue is first-in, first-out, so every stage sees the records in
// input order and the output is the same as on one thread. The queues are short: a stage
// that runs ahead waits, and memory stays bounded whatever the input's size.
//
// What a stage made is let go of on that stage's thread: the summariser hands each batch of
// classified records back to the classifier, which lets go of them and hands the batch's
// records back to the reader. glibc's malloc keeps a small cache of freed blocks per thread,
// and a block freed on another thread than the one that made it goes back to its maker's
// arena under that arena's lock: with every record made on one thread and freed on another,
// the two threads took turns waiting for the same lock (perf: a fifth of the run's CPU time
// in malloc, free and the futex calls of their lock).
//
// A record's text is not a copy but a range of the assembler's chunks of memory
// (`RecordText`, whose file states how long those bytes live): a batch's records come back to
// the reader's thread and die there, and the assembler writes a chunk again once no record
// holds it, so the bytes of a batch are written on one thread, read on the others, and
// given back as the batch is.
import Synchronization

final class RunStages {
    private enum Parcel<Item> {
        case items([Item])
        /// The input went quiet: reporters show what they hold (live use).
        case flush
    }

    /// A batch is passed on at `batchRecords` records or this many bytes of record text.
    static let batchBytes = 1 << 20
    /// Batches a queue holds before its producer waits.
    static let queueLength = 2

    private unowned let run: LogRun
    private let batchRecords: Int
    // Used by the reader's thread alone, never in overlapping accesses: Swift's run-time
    // exclusivity check on each access is left out.
    @exclusivity(unchecked) private var batch: [Record] = []
    private var batchBytes = 0
    private let toClassifier: Handoff<Parcel<Record>>?
    /// Batches of records the later stages are done with, for the reader's thread to let go of.
    private let recordsBack = ReturnTray<[Record]>()
    private var threads: [StageThread] = []
    /// Set by the summariser when the run should stop (the output's reader went away).
    private let stopFlag = StopFlag()

    /// With `threads` false, or when the system makes no thread, each record goes through the
    /// three stages at once on the caller's thread.
    init(run: LogRun, threads: Bool, batchRecords: Int) {
        self.run = run
        self.batchRecords = max(1, batchRecords)
        guard threads else {
            toClassifier = nil
            return
        }
        let toClassifier = Handoff<Parcel<Record>>(capacity: RunStages.queueLength)
        let toSummariser = Handoff<Parcel<LogRun.Classified>>(capacity: RunStages.queueLength)
        let classifiedBack = ReturnTray<[LogRun.Classified]>()
        let recordsBack = recordsBack
        let stopFlag = stopFlag
        guard let summariser = StageThread({
            // Reporters write from here: a signal must be able to cut short a write(2) to a
            // reader that stopped reading.
            Interruption.joinAsWriter()
            defer { Interruption.leaveAsWriter() }
            while let parcel = toSummariser.pop() {
                guard case .items(let items) = parcel else {
                    run.flushReporters()
                    continue
                }
                if !stopFlag.isSet {  // once set, drain, so no producer waits
                    for item in items where run.summarize(item) {
                        stopFlag.set()
                        break
                    }
                }
                classifiedBack.put(items)
            }
        }) else {
            self.toClassifier = nil
            return
        }
        guard let classifier = StageThread({
            // Record batches whose classified records are with the summariser, oldest first
            // (batches come back in the order they left).
            var withSummariser: [[Record]] = []
            while let parcel = toClassifier.pop() {
                var done = classifiedBack.takeAll()
                let doneCount = done.count
                done = []  // the classified records are let go of here, where they were made
                for _ in 0..<min(doneCount, withSummariser.count) { recordsBack.put(withSummariser.removeFirst()) }
                switch parcel {
                case .items(let records):
                    withSummariser.append(records)
                    toSummariser.push(.items(records.map(run.classified)))
                case .flush: toSummariser.push(.flush)
                }
            }
            toSummariser.close()
        }) else {
            toSummariser.close()
            summariser.join()
            self.toClassifier = nil
            return
        }
        self.toClassifier = toClassifier
        self.threads = [classifier, summariser]
    }

    /// Whether the summariser asked the run to stop.
    var stopped: Bool { stopFlag.isSet }

    func send(_ record: Record) {
        guard toClassifier != nil else {
            if !stopped, run.summarize(run.classified(record)) { stopFlag.set() }
            return
        }
        batchBytes += record.text.count
        batch.append(record)
        if batch.count >= batchRecords || batchBytes >= RunStages.batchBytes { passOn() }
    }

    /// Hands the records gathered so far to the classifier.
    func passOn() {
        guard let toClassifier, !batch.isEmpty else { return }
        _ = recordsBack.takeAll()  // let go of here, where they were made
        toClassifier.push(.items(batch))
        batch = []
        batch.reserveCapacity(batchRecords)
        batchBytes = 0
    }

    /// Reporters show what they hold, after every record sent before.
    func flushReporters() {
        guard let toClassifier else { return run.flushReporters() }
        passOn()
        toClassifier.push(.flush)
    }

    /// Waits until every record sent has been summarised and reported.
    func finish() {
        passOn()
        toClassifier?.close()
        for thread in threads { thread.join() }
        threads = []
    }
}

/// A flag one thread sets and others read.
final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
}
