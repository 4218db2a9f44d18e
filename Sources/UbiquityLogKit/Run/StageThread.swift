#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread running one closure; `join` waits for it to return.
final class StageThread {
    private var thread: pthread_t?

    /// Starts `body` on a new thread, with the interrupting signals blocked there: Ctrl-C must
    /// reach the reading thread, whose blocked read(2) it interrupts (see `Interruption`; a
    /// stage that writes unblocks them for itself). Nil when the system cannot make a thread.
    init?(_ body: @escaping () -> Void) {
        var previous = sigset_t()
        Interruption.setBlocked(true, previous: &previous)  // the new thread inherits the mask
        let handle = SystemThread.start(body)
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        guard let handle else { return nil }
        thread = handle
    }

    func join() {
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }
}
