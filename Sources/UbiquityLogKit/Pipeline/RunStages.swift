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
// The lifetime of a batch (`Batch`), the one rule every stage keeps:
//
//   1. The reader's thread takes an empty batch (one handed back, else a new one) and appends
//      the records it assembles; at the batch's end it hands the batch to the classifier.
//   2. The classifier appends to the same batch what it made of each record (`outcomes`, one
//      entry per record, in order) and hands the batch to the summariser.
//   3. The summariser reads the outcomes in order (the summary counts them, reporters show
//      them; neither keeps an entry, a record or an event past the call) and hands the batch
//      back to the classifier.
//   4. The classifier empties `outcomes`, so the events die on the thread that made them, and
//      hands the batch back to the reader's thread.
//   5. The reader's thread empties `records`, so the records, and the assembler's chunks of
//      memory their text lies in (`RecordText`), are let go of where they were made; the
//      batch, with its buffers' capacity, is filled again.
//
// A batch is one object from step 1 to step 5: a hand-off moves one reference, whatever the
// batch holds, and its two buffers are reused from batch to batch, so passing records on
// allocates nothing (each outcome still holds a `ClassifiedRecord` object: see why there).
// What a stage made is let go of on that stage's thread:
// glibc's malloc keeps a small cache of freed blocks per thread, and a block freed on another
// thread than the one that made it goes back to its maker's arena under that arena's lock:
// with every record made on one thread and freed on another, the two threads took turns
// waiting for the same lock (perf: a fifth of the run's CPU time in malloc, free and the
// futex calls of their lock).
import Synchronization

final class RunStages {
    /// The records read together and, once classified, what became of each (see the rule
    /// above). Its contents belong to one stage at a time, the one the batch was handed to
    /// (hence `@unchecked Sendable`, and no run-time exclusivity check on each access).
    final class Batch: @unchecked Sendable {
        @exclusivity(unchecked) var records: ContiguousArray<Record> = []
        /// `outcomes[i]` is what the classifier made of `records[i]`.
        @exclusivity(unchecked) var outcomes: ContiguousArray<LogRun.Classified> = []
        /// Bytes of record text in `records`.
        @exclusivity(unchecked) var bytes = 0

        init(capacity: Int) {
            records.reserveCapacity(capacity)
            outcomes.reserveCapacity(capacity)
        }
    }

    private enum Parcel {
        case batch(Batch)
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
    @exclusivity(unchecked) private var batch: Batch?
    /// Emptied batches, for the reader's thread to fill again.
    @exclusivity(unchecked) private var spare: [Batch] = []
    private let toClassifier: Handoff<Parcel>?
    /// Batches the later stages are done with, for the reader's thread to empty (step 5).
    private let batchesBack = ReturnTray<Batch>()
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
        let toClassifier = Handoff<Parcel>(capacity: RunStages.queueLength)
        let toSummariser = Handoff<Parcel>(capacity: RunStages.queueLength)
        let summarised = ReturnTray<Batch>()
        let batchesBack = batchesBack
        let stopFlag = stopFlag
        guard let summariser = StageThread({
            // Reporters write from here: a signal must be able to cut short a write(2) to a
            // reader that stopped reading.
            Interruption.joinAsWriter()
            defer { Interruption.leaveAsWriter() }
            while let parcel = toSummariser.pop() {
                guard case .batch(let batch) = parcel else {
                    run.flushReporters()
                    continue
                }
                if !stopFlag.isSet {  // once set, drain, so no producer waits
                    // Each entry is lent where it lies, not copied out of the buffer.
                    batch.outcomes.withUnsafeBufferPointer { outcomes in
                        for index in outcomes.indices { run.summarize(outcomes[index]) }
                    }
                    // Whether the output's reader went away, asked once a batch, not for every
                    // record (a call through a closure and a retain of its context, some 30
                    // instructions a record, callgrind, 3 MB default mix, -q): at most a batch
                    // more is written into a closed output, which drops it.
                    if run.shouldStop() { stopFlag.set() }
                }
                summarised.put(batch)  // step 3
            }
        }) else {
            self.toClassifier = nil
            return
        }
        guard let classifier = StageThread({
            while let parcel = toClassifier.pop() {
                for done in summarised.takeAll() {  // step 4
                    done.outcomes.removeAll(keepingCapacity: true)
                    batchesBack.put(done)
                }
                switch parcel {
                case .batch(let batch):  // step 2
                    for record in batch.records { batch.outcomes.append(run.classified(record)) }
                    toSummariser.push(.batch(batch))
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
            guard !stopped else { return }
            run.summarize(run.classified(record))
            if run.shouldStop() { stopFlag.set() }
            return
        }
        let batch = self.batch ?? emptyBatch()
        self.batch = batch
        batch.bytes += record.text.count
        batch.records.append(record)  // step 1
        if batch.records.count >= batchRecords || batch.bytes >= RunStages.batchBytes { passOn() }
    }

    /// A batch to fill: one handed back (emptied here, step 5), else a new one.
    private func emptyBatch() -> Batch {
        for done in batchesBack.takeAll() {
            done.records.removeAll(keepingCapacity: true)
            done.bytes = 0
            spare.append(done)
        }
        return spare.popLast() ?? Batch(capacity: batchRecords)
    }

    /// Hands the records gathered so far to the classifier.
    func passOn() {
        guard let toClassifier, let batch else { return }
        self.batch = nil
        toClassifier.push(.batch(batch))
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
