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
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        var previous = sigset_t()
        Interruption.setBlocked(true, previous: &previous)  // the new thread inherits the mask
        var handle = pthread_t()
        let started = pthread_create(&handle, nil, { context in
            guard let context else { return nil }
            Unmanaged<Box>.fromOpaque(context).takeRetainedValue().body()
            return nil
        }, context)
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        guard started == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            return nil
        }
        thread = handle
    }

    func join() {
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
}
