// Ctrl-C during a run: the read in progress returns, the run ends and the summary of what
// was read so far is still printed.
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public enum Interruption {
    private static let flag = Atomic<Bool>(false)

    /// Whether SIGINT arrived since `install()`.
    public static var requested: Bool { flag.load(ordering: .relaxed) }

    /// Catches SIGINT without SA_RESTART, so that a blocked read(2) returns EINTR and the
    /// reader can see the request.
    public static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in Interruption.flag.store(true, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
        // A parent may have left SIGINT blocked (some process launchers do); unblock it.
        var interrupt = sigset_t()
        sigemptyset(&interrupt)
        sigaddset(&interrupt, SIGINT)
        sigprocmask(SIG_UNBLOCK, &interrupt, nil)
    }
}
