// A thread of the run (`StageThread`), made and signalled: the one part of threading
// whose types differ between the platforms. glibc's `pthread_t` is an integer (unsigned
// long), Darwin's a pointer (struct _opaque_pthread_t *); mutexes and condition variables
// (`Handoff`), pthread_join and pthread_sigmask take the same arguments on both.
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

enum SystemThread {
    /// Starts a thread that runs `body`; its handle, or nil when the system could not make a
    /// thread. It inherits the caller's signal mask.
    static func start(_ body: @escaping () -> Void) -> pthread_t? {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
#if canImport(Darwin)
        // <pthread.h>: int pthread_create(pthread_t _Nullable * _Nonnull, ...): the handle is
        // written into a `pthread_t?`.
        var handle: pthread_t? = nil
#elseif canImport(Glibc)
        // <pthread.h>: int pthread_create(pthread_t *, ...), pthread_t an unsigned long.
        var handle = pthread_t()
#else
#error("pthread_t is spelled here for Darwin and glibc only")
#endif
        // The entry's argument is `void *` on glibc and `void * _Nullable` in Darwin's
        // pthread.h: converted to an optional and unwrapped, one body compiles whether Swift
        // imports it as optional or not. It is never nil: it is `context`.
        let started = pthread_create(&handle, nil, { argument in
            Unmanaged<Body>.fromOpaque((argument as UnsafeMutableRawPointer?)!).takeRetainedValue().run()
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return nil
        }
        return handle
    }

    /// The calling thread as a number an `Atomic<UInt>` holds, never 0 (a thread's handle
    /// is not 0 on either platform), for `signal`.
    static var currentNumber: UInt {
#if canImport(Darwin)
        UInt(bitPattern: pthread_self())  // pthread_t: UnsafeMutablePointer<_opaque_pthread_t>
#elseif canImport(Glibc)
        UInt(pthread_self())  // pthread_t: UInt
#endif
    }

    /// Sends `signal` to the thread whose `currentNumber` is `number`, which must still be
    /// running. Async-signal-safe: pthread_kill and no allocation.
    static func signal(_ number: UInt, _ signal: Int32) {
#if canImport(Darwin)
        // <signal.h>: int pthread_kill(pthread_t, int);
        guard let thread = pthread_t(bitPattern: number) else { return }
        pthread_kill(thread, signal)
#elseif canImport(Glibc)
        pthread_kill(pthread_t(number), signal)
#endif
    }

    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }
}
