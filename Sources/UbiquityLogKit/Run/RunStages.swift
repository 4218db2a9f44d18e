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
// that runs ahead waits, and memory stays bounded whatever the input's size. Without threads
// (a small file, a process held to one processor: `LogRun.process`) the caller's thread takes
// each batch through the stages itself when it is passed on, in the same steps: each stage's
// code and tables stay in the processor's caches for a batch, not for a record.
//
// The lifetime of a batch (`Batch`), the one rule every stage keeps:
//
//   1. The reader's thread takes an empty batch (one handed back, else a new one) and appends
//      the records it assembles, each as a `RecordEntry` (plain values: where its bytes lie
//      and its header), and holds each chunk of memory the entries' bytes lie in once
//      (`chunks`; an entry does not keep its chunk alive). A record that comes as an object
//      (NDJSON, a preview) is appended as the object. A run of plain records of one line
//      (most lines of a device console) is read in C where the reader holds it
//      (`cbytescan_plain_run`) and appended as the entries the assembler would make of them
//      (`takePlainRun`). At the batch's end the reader's thread hands the batch to the
//      classifier.
//   2. The classifier appends to the same batch what it made of each record (`outcomes`, in
//      order) and hands the batch to the summariser. An entry the reader found plain
//      (`RecordEntry.isPlain`: no marker, and a message no rule for messages without one may
//      match; most lines of a device console) is the app's line without a look at its record,
//      where no time window or `--process` asks for its time or process: it gets no outcome
//      of its own (`Batch.plainShortcut`).
//   3. The summariser reads the outcomes in order (the summary counts them, reporters show
//      them; neither keeps an entry, a record or an event past the call) and hands the batch
//      back to the classifier. Where the reporters that read records take them so (none does
//      with `-q`; the text timeline below `-v`), a run of plain entries is counted and shown
//      where it lies, with no record lent (`LogRun.countsPlainAlone`).
//   4. The classifier empties `outcomes`, so the events die on the thread that made them, and
//      hands the batch back to the reader's thread.
//   5. The reader's thread empties `records` and `chunks`, so the chunks records lie in are
//      let go of where they were made (and found free again to reuse); the batch, with its
//      buffers' capacity, is filled again.
//
// A stage sees a record as a `Record` object all the same: its `RecordLender` lends it one
// object, loaded with each entry in turn, for the call (a record the call kept stays as it
// is, and the lender makes another). So a record is not an object of its own from the
// reader to the summary: none is allocated, retained, released or freed for it.
//
// A batch is one object from step 1 to step 5: a hand-off moves one reference, whatever the
// batch holds, and its buffers are reused from batch to batch, so passing records on
// allocates nothing.
// What a stage made is let go of on that stage's thread:
// glibc's malloc keeps a small cache of freed blocks per thread, and a block freed on another
// thread than the one that made it goes back to its maker's arena under that arena's lock:
// with every record made on one thread and freed on another, the two threads would take
// turns waiting for the same lock.
import CByteScan
import Synchronization

final class RunStages {
    /// The records read together and, once classified, what became of each (see the rule
    /// above). Its contents belong to one stage at a time, the one the batch was handed to
    /// (hence `@unchecked Sendable`, and no run-time exclusivity check on each access).
    final class Batch: @unchecked Sendable {
        /// The records, in order (entries of their own, or places in `objects`): `count` of
        /// them from `entries`, written in place. An entry is plain values, with nothing to
        /// retain or destroy; written in place, not appended to a ContiguousArray, so that no
        /// record pays for the array's checks of room and uniqueness.
        private(set) var entries: UnsafeMutablePointer<RecordEntry>
        private var room: Int
        @exclusivity(unchecked) private(set) var count = 0
        /// The records that came as objects.
        @exclusivity(unchecked) var objects: ContiguousArray<Record> = []
        /// What the classifier made of each record, in order, but the plain entries it took by
        /// the shortcut (`plainShortcut`).
        @exclusivity(unchecked) var outcomes: ContiguousArray<LogRun.Classified> = []
        /// The chunks the entries' bytes lie in, each held once (see the rule above).
        @exclusivity(unchecked) var chunks: [TextChunk] = []
        /// The last of `chunks`, compared without a retain.
        @exclusivity(unchecked) var lastChunk: ObjectIdentifier?
        /// Bytes of record text in the batch (it is passed on at `batchBytes`).
        @exclusivity(unchecked) var bytes = 0

        init(capacity: Int) {
            room = max(1, capacity)
            entries = .allocate(capacity: room)
            outcomes.reserveCapacity(capacity)
        }

        deinit { entries.deallocate() }

        /// Room for one more entry (a batch is passed on at its capacity, so this seldom grows it).
        @inline(__always)
        private func makeRoom() {
            guard count == room else { return }
            let grown = UnsafeMutablePointer<RecordEntry>.allocate(capacity: room * 2)
            grown.moveInitialize(from: entries, count: count)
            entries.deallocate()
            entries = grown
            room *= 2
        }

        func append(_ entry: UnsafePointer<RecordEntry>) {
            let chunk = ObjectIdentifier(entry.pointee.chunk)
            if lastChunk != chunk {
                chunks.append(entry.pointee.chunk)
                lastChunk = chunk
            }
            bytes += entry.pointee.count
            makeRoom()
            (entries + count).initialize(to: entry.pointee)
            count += 1
        }

        func append(_ record: Record) {
            var entry = RecordEntry(chunk: record.chunk)
            entry.object = objects.count
            bytes += record.text.count
            makeRoom()
            (entries + count).initialize(to: entry)
            count += 1
            objects.append(record)
        }

        /// Appends the plain records `cbytescan_plain_run` read, `lines[0..<count]`, each a line
        /// of `chunk` from `base` on, numbered from `firstLine`: each as the entry the assembler
        /// would make of it (`HeaderParser.parse`'s header, `RecordAssembler.close`'s entry).
        func appendPlain(_ lines: UnsafePointer<cbytescan_plain_line>, count lineCount: Int, chunk: Unmanaged<TextChunk>,
                         base: UnsafePointer<UInt8>, firstLine: Int) {
            let held = chunk._withUnsafeGuaranteedRef { chunk -> RecordEntry in
                let id = ObjectIdentifier(chunk)
                if lastChunk != id {
                    chunks.append(chunk)
                    lastChunk = id
                }
                return RecordEntry(chunk: chunk)
            }
            var entry = held
            entry.lineCount = 1
            entry.isPlain = true
            for index in 0..<lineCount {
                let line = lines + index
                entry.origin = base + Int(line.pointee.start)
                entry.count = Int(line.pointee.count)
                entry.firstLine = firstLine + index
                entry.bodyStart = Int(line.pointee.body_start)
                entry.head = RecordHead(plain: line)
                bytes += entry.count
                makeRoom()
                (entries + count).initialize(to: entry)
                count += 1
            }
        }

        /// Where the run of plain entries that `index` starts ends, at `end` at the latest.
        @inline(__always)
        private func plainRunEnd(after index: Int, before end: Int) -> Int {
            var runEnd = index + 1
            while runEnd < end, entries[runEnd].isPlain { runEnd += 1 }
            return runEnd
        }

        /// Empties the batch to be filled again (step 5).
        func empty() {
            count = 0
            objects.removeAll(keepingCapacity: true)
            chunks.removeAll(keepingCapacity: true)
            lastChunk = nil
            bytes = 0
        }

        /// What `run`'s classifier makes of each record, in order, appended to `outcomes` (step
        /// 2): one outcome a record, but for an entry the reader found plain
        /// (`RecordEntry.isPlain`) where the run takes the shortcut (`LogRun.classifiesPlainAlone`):
        /// that one has none, its outcome being the app's line (`classifiedPlain`; see `plainShortcut`).
        func classifyEach(_ lender: inout RecordLender, by run: LogRun) {
            let shortcut = run.classifiesPlainAlone
            plainShortcut = shortcut
            var index = 0
            while index < count {
                let entry = entries + index
                if entry.pointee.object >= 0 {
                    outcomes.append(run.classified(objects[entry.pointee.object]))
                } else if shortcut, entry.pointee.isPlain {
                    // A run of plain entries at once: after the first, `classifiedPlain` has no
                    // reviewer left to interrupt, and makes the same outcome.
                    _ = run.classifiedPlain()
                    index = plainRunEnd(after: index, before: count)
                    continue
                } else {
                    outcomes.append(lender.withRecord(entry) { run.classified($0) })
                }
                index += 1
            }
        }

        /// Whether `classifyEach` took the plain entries by the shortcut: then they have no
        /// entry in `outcomes` (a copy of the same outcome for each, and its destruction, would
        /// cost more than counting the record), and `outcomes[i]` is the outcome of the `i`th
        /// record that is not such an entry.
        @exclusivity(unchecked) private(set) var plainShortcut = false

        /// Each record with its outcome, in order, lent to `body`. The outcome is moved out of
        /// its buffer for the call and back in after it, with no retain or release: read in
        /// place through the buffer's pointer, it would be copied for the call (a retain and a
        /// release of the event's payload and the rule, and a switch over the event's cases
        /// to find what to retain).
        /// The entries the classifier found plain by the shortcut (step 2) have the app's line
        /// as their outcome; with `plain`, they go to `plain` where they lie, each run of them in
        /// one call, with no record lent.
        func lendEach(_ lender: inout RecordLender, plain: ((UnsafePointer<RecordEntry>, Int) -> Void)? = nil,
                      _ body: (Record, borrowing LogRun.Classified) -> Void) {
            let shortcut = plainShortcut
            let app = LogRun.Classified.record(Classification(event: .app))
            outcomes.withUnsafeMutableBufferPointer { outcomes in
                var index = 0, next = 0
                while index < count {
                    let entry = entries + index
                    if shortcut, entry.pointee.isPlain {
                        index = lendPlain(&lender, from: index, outcome: app, plain: plain, body)
                        continue
                    }
                    guard let outcomeSlots = outcomes.baseAddress, next < outcomes.count else { return }
                    defer { index += 1; next += 1 }
                    let outcome = (outcomeSlots + next).move()
                    if entry.pointee.object < 0 {
                        lender.withRecord(entry) { body($0, outcome) }
                    } else {
                        body(objects[entry.pointee.object], outcome)
                    }
                    (outcomeSlots + next).initialize(to: outcome)
                }
            }
        }

        /// The run of plain entries from `index` (with no outcome of their own, see
        /// `plainShortcut`) to `plain` in one call, or each lent to `body` with `outcome`;
        /// returns where the run ends.
        private func lendPlain(_ lender: inout RecordLender, from index: Int, outcome: borrowing LogRun.Classified,
                               plain: ((UnsafePointer<RecordEntry>, Int) -> Void)?, _ body: (Record, borrowing LogRun.Classified) -> Void) -> Int {
            let runEnd = plainRunEnd(after: index, before: count)
            if let plain {
                plain(entries + index, runEnd - index)
            } else {
                for at in index..<runEnd { lender.withRecord(entries + at) { body($0, outcome) } }
            }
            return runEnd
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

    /// Unowned, as the run makes and finishes its stages within one `process` call; unsafe, as
    /// a checked unowned reference is made strong for each use, and one thread uses it three
    /// times a record (classify, summarize, shouldStop).
    private unowned(unsafe) let run: LogRun
    private let batchRecords: Int
    // Used by the reader's thread alone, never in overlapping accesses: Swift's run-time
    // exclusivity check on each access is left out.
    @exclusivity(unchecked) private var batch: Batch?
    /// `batch`, unretained (see `currentBatch`); nil when `batch` is.
    @exclusivity(unchecked) private var filling: Unmanaged<Batch>?
    /// Emptied batches, for the reader's thread to fill again.
    @exclusivity(unchecked) private var spare: [Batch] = []
    private let toClassifier: Handoff<Parcel>?
    /// Batches the later stages are done with, for the reader's thread to empty (step 5).
    private let batchesBack = ReturnTray<Batch>()
    private var threads: [StageThread] = []
    /// Lends records on the caller's thread, when the stages run there.
    @exclusivity(unchecked) private var lender: RecordLender
    /// Set by the summariser when the run should stop (the output's reader went away).
    private let stopFlag = StopFlag()

    /// With `threads` false, or when the system makes no thread, each batch goes through the
    /// stages on the caller's thread when it is passed on (`passOn`).
    init(run: LogRun, input: String, threads: Bool, batchRecords: Int) {
        self.run = run
        self.batchRecords = max(1, batchRecords)
        lender = RecordLender(input: input)
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
            var lender = RecordLender(input: input)
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
                    RunStages.summarizeEach(batch, &lender, by: run, stopFlag: stopFlag)
                }
                summarised.put(batch)  // step 3
            }
        }) else {
            self.toClassifier = nil
            return
        }
        guard let classifier = StageThread({
            var lender = RecordLender(input: input)
            while let parcel = toClassifier.pop() {
                for done in summarised.takeAll() {  // step 4
                    done.outcomes.removeAll(keepingCapacity: true)
                    batchesBack.put(done)
                }
                switch parcel {
                case .batch(let batch):  // step 2
                    batch.classifyEach(&lender, by: run)
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

    /// Step 3: each record of `batch` summarised with its outcome, lent where it lies, not
    /// copied out of the buffer; a run of plain entries taken where it lies where the run
    /// allows (`LogRun.countsPlainAlone`). Whether the output's reader went away is asked once a batch,
    /// not for every record (each ask is a call through a closure and a retain of its
    /// context): at most a batch more is written into a closed output, which drops it.
    private static func summarizeEach(_ batch: Batch, _ lender: inout RecordLender, by run: LogRun, stopFlag: StopFlag) {
        if run.countsPlainAlone {
            batch.lendEach(&lender, plain: { run.summarizePlain($0, count: $1) }) { record, outcome in run.summarize(record, outcome) }
        } else {
            batch.lendEach(&lender) { record, outcome in run.summarize(record, outcome) }
        }
        if run.shouldStop() { stopFlag.set() }
    }

    /// Steps 2 to 5 of `batch` at once, on the caller's thread (the stages without threads).
    private func throughStages(_ batch: Batch) {
        if !stopped {
            batch.classifyEach(&lender, by: run)
            RunStages.summarizeEach(batch, &lender, by: run, stopFlag: stopFlag)
        }
        batch.outcomes.removeAll(keepingCapacity: true)
        batch.empty()
    }

    /// Whether the summariser asked the run to stop.
    var stopped: Bool { stopFlag.isSet }

    /// Passes on what `assembler.close()` gave: nothing, its entry or a record as an object.
    func pass(_ closed: RecordAssembler.Closed?, of assembler: RecordAssembler) {
        switch closed {
        case nil: break
        case .entry?: sendClosedEntry(of: assembler)
        case .object(let record)?: send(record)
        }
    }

    /// Passes on the record `assembler` closed last as an entry (`closedEntry`), read where it
    /// lies; the assembler keeps its bytes alive until then.
    func sendClosedEntry(of assembler: RecordAssembler) {
        withUnsafePointer(to: &assembler.closedEntry) { entry in
            let full = currentBatch()._withUnsafeGuaranteedRef { batch in
                batch.append(entry)  // step 1
                return batch.count >= batchRecords || batch.bytes >= RunStages.batchBytes
            }
            if full { passOn() }
        }
    }

    /// Where `takePlainRun` has `cbytescan_plain_run` put the lines it reads (reader's thread).
    @exclusivity(unchecked) private var plainLines: UnsafeMutablePointer<cbytescan_plain_line>?

    /// Takes the plain records of one line at the start of `bytes` (lines of `chunk`, the first
    /// numbered `firstLine`) into the batch as entries, as `cbytescan_plain_run` finds them under
    /// `rules`; before the first, `closeOpen` passes on the record the assembler holds open (the
    /// first plain line would have closed it). Returns the bytes and lines taken.
    func takePlainRun(_ bytes: UnsafeRawBufferPointer, chunk: Unmanaged<TextChunk>, firstLine: Int,
                      rules: UnsafePointer<cbytescan_plain_rules>, closeOpen: () -> Void) -> (bytes: Int, lines: Int) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return (0, 0) }
        let lines: UnsafeMutablePointer<cbytescan_plain_line>
        if let plainLines { lines = plainLines } else {
            lines = .allocate(capacity: batchRecords)
            plainLines = lines
        }
        let room = currentBatch()._withUnsafeGuaranteedRef { batchRecords - $0.count }
        var taken = 0
        let count = cbytescan_plain_run(base, bytes.count, rules, lines, max(1, room), &taken)
        guard count > 0 else { return (0, 0) }
        closeOpen()
        let full = currentBatch()._withUnsafeGuaranteedRef { batch in
            batch.appendPlain(lines, count: count, chunk: chunk, base: base, firstLine: firstLine)
            return batch.count >= batchRecords || batch.bytes >= RunStages.batchBytes
        }
        if full { passOn() }
        return (taken, count)
    }

    /// Passes on a record that comes as an object (NDJSON, a preview).
    func send(_ record: Record) {
        let full = currentBatch()._withUnsafeGuaranteedRef { batch in
            batch.append(record)  // step 1
            return batch.count >= batchRecords || batch.bytes >= RunStages.batchBytes
        }
        if full { passOn() }
    }

    /// The batch being filled, lent without a retain (`batch` holds it until `passOn`):
    /// returned as a reference, it would be retained and released for every record.
    private func currentBatch() -> Unmanaged<Batch> {
        if let filling { return filling }
        let batch = emptyBatch()
        self.batch = batch
        let filling = Unmanaged.passUnretained(batch)
        self.filling = filling
        return filling
    }

    /// A batch to fill: one handed back (emptied here, step 5), else a new one.
    private func emptyBatch() -> Batch {
        for done in batchesBack.takeAll() {
            done.empty()
            spare.append(done)
        }
        return spare.popLast() ?? Batch(capacity: batchRecords)
    }

    /// Hands the records gathered so far to the classifier; without threads, takes them
    /// through the stages here.
    func passOn() {
        guard let batch else { return }
        self.batch = nil
        filling = nil
        guard let toClassifier else {
            throughStages(batch)
            spare.append(batch)
            return
        }
        toClassifier.push(.batch(batch))
    }

    /// Reporters show what they hold, after every record sent before.
    func flushReporters() {
        passOn()
        guard let toClassifier else { return run.flushReporters() }
        toClassifier.push(.flush)
    }

    /// Waits until every record sent has been summarised and reported.
    func finish() {
        plainLines?.deallocate()
        plainLines = nil
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
