// A signal's handler as the C library's `struct sigaction` holds it: the one part of signal
// handling whose spelling differs between the platforms (C reads `sa_handler` on both, a
// macro each library defines; Swift sees the fields behind it). The rest of what
// `Interruption` calls (sigaction(), sigset_t with sigemptyset and sigaddset,
// pthread_sigmask, raise, SIG_BLOCK and the signal numbers) is POSIX, declared alike by both.
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A handler as `sa_handler` holds it: a C function of the signal's number.
typealias SignalHandler = @convention(c) (Int32) -> Void

enum SignalDisposition {
    /// Whether `signal` is ignored (SIG_IGN) now, as a parent may have left it (`nohup`).
    static func isIgnored(_ signal: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(signal, nil, &current) == 0 else { return false }
        return unsafeBitCast(handler(of: current), to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// Makes `handler` catch `signal` (nil: the default action, SIG_DFL), with no signal
    /// blocked while it runs but `signal` itself and no flags: without SA_RESTART, a read(2)
    /// or write(2) blocked when the signal arrives returns EINTR.
    static func set(_ signal: Int32, to handler: SignalHandler?) {
        var action = sigaction()
        setHandler(of: &action, to: handler)
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(signal, &action, nil)
    }

#if canImport(Darwin)
    // <sys/signal.h>:
    //   union __sigaction_u { void (*__sa_handler)(int);
    //                         void (*__sa_sigaction)(int, struct __siginfo *, void *); };
    //   struct sigaction { union __sigaction_u __sigaction_u; sigset_t sa_mask; int sa_flags; };
    //   #define sa_handler __sigaction_u.__sa_handler
    private static func handler(of action: sigaction) -> SignalHandler? {
        action.__sigaction_u.__sa_handler
    }

    private static func setHandler(of action: inout sigaction, to handler: SignalHandler?) {
        action.__sigaction_u.__sa_handler = handler
    }
#elseif canImport(Glibc)
    // <bits/sigaction.h>:
    //   struct sigaction { union { __sighandler_t sa_handler;
    //                              void (*sa_sigaction)(int, siginfo_t *, void *); } __sigaction_handler;
    //                      __sigset_t sa_mask; int sa_flags; void (*sa_restorer)(void); };
    //   #define sa_handler __sigaction_handler.sa_handler
    private static func handler(of action: sigaction) -> SignalHandler? {
        action.__sigaction_handler.sa_handler
    }

    private static func setHandler(of action: inout sigaction, to handler: SignalHandler?) {
        action.__sigaction_handler.sa_handler = handler
    }
#else
#error("struct sigaction is spelled here for Darwin and glibc only")
#endif
}
