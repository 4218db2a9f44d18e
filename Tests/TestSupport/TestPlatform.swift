// What the machine running the tests offers beyond POSIX, for the tests that need it: each is
// gated with `.enabled(if: TestPlatform.…, "reason")`, so that it runs wherever it can and is
// reported as skipped (never passed) where it cannot, such as on macOS, which has no /proc and
// no /dev/full, and whose file systems take only UTF-8 file names. And the C library's own
// text for an error, which differs between platforms.
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public enum TestPlatform {
    /// Linux's /proc: a process's status, stat and memory as files.
    public static let hasProcFS = FileManager.default.fileExists(atPath: "/proc/self/status")
    /// Linux's /dev/full: every write to it fails with ENOSPC.
    public static let hasDevFull = FileManager.default.fileExists(atPath: "/dev/full")

    /// Whether the temporary folder's file system takes a file name that is not UTF-8 (ext4
    /// does; APFS and HFS+, macOS's, refuse one with EILSEQ). Found by making one.
    public static let takesFileNamesThatAreNotUTF8: Bool = {
        let folder = FileManager.default.temporaryDirectory.path
        let name: [UInt8] = Array("\(folder)/parselogs-probe-\(getpid())-caf".utf8) + [0xE9, 0]
        return name.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { path in
                let descriptor = open(path.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o600)
                guard descriptor >= 0 else { return false }
                close(descriptor)
                unlink(path.baseAddress!)
                return true
            }
        }
    }()

    /// The C library's text for `code`, as the binary shows it (glibc and Darwin differ on some).
    public static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// The handle for dlsym(3) that searches every loaded image: 0 with glibc, -2 on Darwin
    /// (a cast in a macro, which Swift does not import).
    public static var everyImage: UnsafeMutableRawPointer? {
        #if canImport(Darwin)
        UnsafeMutableRawPointer(bitPattern: -2)
        #else
        UnsafeMutableRawPointer(bitPattern: 0)
        #endif
    }
}
