// Ctrl-C (SIGINT), SIGTERM and SIGHUP during a run: the read or write in progress returns,
// the run ends, the summary of what was read so far is still printed (with `--format github`,
// after the line that resumes workflow commands), and the process then ends by the same
// signal, so that a shell loop around it or a supervisor sees what ended it.
//
// A process-wide signal reaches one thread. The threads that may sit in a system call the
// signal must cut short register here (the reading thread, blocked in read(2) on a quiet
// pipe; the summarising thread, blocked in write(2) to a reader that stopped reading); the
// first signal is passed on to each of them (pthread_kill), so each call returns EINTR.
//
// What the platforms spell differently is in Platform/: the handler's field of struct
// sigaction (Signals.swift) and a thread's handle (Threads.swift).
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public enum Interruption {
    private static let flag = Atomic<Bool>(false)
    private static let received = Atomic<Int32>(0)
    /// Threads to pass the first signal on to (`SystemThread.currentNumber`; 0: none); see
    /// the note at the top.
    private static let readingThread = Atomic<UInt>(0)
    private static let writingThread = Atomic<UInt>(0)

    /// The signals that end a run early.
    public static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Whether one of `signals` arrived since `install()`.
    public static var requested: Bool { flag.load(ordering: .relaxed) }

    /// The signal that arrived first (0 when none did).
    public static var signalNumber: Int32 { received.load(ordering: .relaxed) }

    /// Catches `signals` without SA_RESTART, so that a blocked read(2) or write(2) returns
    /// EINTR and the run sees the request. Called on the thread that reads. A SIGHUP that
    /// the parent ignores (`nohup`) stays ignored.
    public static func install() {
        for signal in signals {
            if signal == SIGHUP, SignalDisposition.isIgnored(signal) { continue }
            SignalDisposition.set(signal, to: { signal in Interruption.arrived(signal) })
        }
        // A parent may have left them blocked (some process launchers do); unblock them.
        setBlocked(false)
        readingThread.store(currentThread, ordering: .sequentiallyConsistent)
    }

    /// The calling thread (a stage that writes) is to be interrupted too, until `leave()`.
    static func joinAsWriter() {
        setBlocked(false)
        writingThread.store(currentThread, ordering: .sequentiallyConsistent)
    }

    /// The writing thread is about to end: no signal is passed on to it any more.
    static func leaveAsWriter() {
        writingThread.store(0, ordering: .sequentiallyConsistent)
        setBlocked(true)
    }

    /// Blocks (or unblocks) `signals` on the calling thread; a new thread inherits its
    /// creator's mask.
    static func setBlocked(_ blocked: Bool, previous: UnsafeMutablePointer<sigset_t>? = nil) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(blocked ? SIG_BLOCK : SIG_UNBLOCK, &set, previous)
    }

    /// Ends the process by the signal that interrupted it, with the default action (after
    /// the output is written): a shell sees 128 + the signal's number, and a loop around
    /// the command stops. Returns only if no signal arrived.
    public static func endBySignal() {
        let signal = signalNumber
        guard signal != 0 else { return }
        SignalDisposition.set(signal, to: SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(signal)
        _exit(128 + signal)  // not reached: the default action of these signals ends the process
    }

    /// The handler, async-signal-safe: atomics and pthread_kill only.
    private static func arrived(_ signal: Int32) {
        guard !flag.exchange(true, ordering: .sequentiallyConsistent) else { return }
        received.store(signal, ordering: .sequentiallyConsistent)
        // No array here: a handler must not allocate.
        let this = currentThread
        let reading = readingThread.load(ordering: .sequentiallyConsistent)
        if reading != 0, reading != this { SystemThread.signal(reading, signal) }
        let writing = writingThread.load(ordering: .sequentiallyConsistent)
        if writing != 0, writing != this { SystemThread.signal(writing, signal) }
    }

    private static var currentThread: UInt { SystemThread.currentNumber }
}
