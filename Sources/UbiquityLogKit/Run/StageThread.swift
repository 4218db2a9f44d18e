#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A closure running on a thread of its own; `join` waits for it to return. The thread is a
/// worker kept for the next stage once the closure returns: a run of many inputs starts its
/// stages once an input, and a thread made and ended for each cost more than a small input's
/// records (the allocator's collection at a thread's end grows with what earlier threads left).
final class StageThread {
    private var worker: StageWorker?

    /// Starts `body` on an idle worker, or a new one, with the interrupting signals blocked
    /// there: Ctrl-C must reach the reading thread, whose blocked read(2) it interrupts (see
    /// `Interruption`; a stage that writes unblocks them for itself, and blocks them again
    /// when it ends). Nil when the system cannot make a thread.
    init?(_ body: @escaping () -> Void) {
        guard let worker = StageWorker.take() else { return nil }
        worker.start(body)
        self.worker = worker
    }

    func join() {
        guard let worker else { return }
        worker.wait()
        StageWorker.putBack(worker)
        self.worker = nil
    }
}

/// A thread that runs one closure after another, idle between them.
private final class StageWorker: @unchecked Sendable {
    /// The order workers were made in: an idle worker is taken lowest first, so that a run's
    /// stages, started in the same order for each input, each keep their thread.
    private let number: Int
    private let jobs = Handoff<() -> Void>(capacity: 1)
    private let finished = Handoff<Bool>(capacity: 1)

    private static let idle = Mutex<(workers: [StageWorker], made: Int)>(([], 0))

    private init(number: Int) { self.number = number }

    static func take() -> StageWorker? {
        let (kept, number) = idle.withLock { state -> (StageWorker?, Int) in
            if !state.workers.isEmpty { return (state.workers.removeFirst(), 0) }
            state.made += 1
            return (nil, state.made)
        }
        if let kept { return kept }
        let worker = StageWorker(number: number)
        var previous = sigset_t()
        Interruption.setBlocked(true, previous: &previous)  // the new thread inherits the mask
        let handle = SystemThread.start { worker.serve() }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        guard let handle else { return nil }
        pthread_detach(handle)
        return worker
    }

    static func putBack(_ worker: StageWorker) {
        idle.withLock { state in
            let place = state.workers.firstIndex { $0.number > worker.number } ?? state.workers.count
            state.workers.insert(worker, at: place)
        }
    }

    func start(_ body: @escaping () -> Void) { jobs.push(body) }

    /// Waits until the closure started last has returned and been let go.
    func wait() { _ = finished.pop() }

    private func serve() {
        while true {
            var job = jobs.pop()
            guard job != nil else { return }
            job?()
            // Released here, before `wait` returns: what the closure holds ends with its stage.
            job = nil
            finished.push(true)
        }
    }
}
