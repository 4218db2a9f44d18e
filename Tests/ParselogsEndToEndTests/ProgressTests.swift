// The progress line of a long read: on a terminal's standard error (a pseudo-terminal here),
// erased before the run ends; never in a pipe, with --no-progress or in a CI format; without
// escapes on a dumb terminal and without colour under NO_COLOR.
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct ProgressTests {
    /// A log over the progress threshold (4 MiB): app lines, which read fast.
    static func largeLog(in folder: ScratchFolder) throws -> String {
        let line = "2014-03-02 09:14:07.318 Journal[412:707] " + String(repeating: "x", count: 4_000) + "\n"
        return try folder.write("large.log", Data(String(repeating: line, count: 1_100).utf8))
    }

    /// Runs the binary with its standard error on a pseudo-terminal (standard output to
    /// /dev/null) and returns what the terminal received and the exit status.
    static func onTerminal(_ arguments: [String], environment: [String: String] = ["TERM": "xterm"]) throws -> (text: String, status: Int32) {
        let pty = try require(PseudoTerminalCalls())
        let master = pty.open(O_RDWR | O_NOCTTY)
        try require(master >= 0)
        defer { close(master) }
        try require(pty.grant(master) == 0 && pty.unlock(master) == 0)
        let name = try require(pty.name(master).map { String(cString: $0) })
        let terminal = try require(FileHandle(forWritingAtPath: name))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = arguments
        process.currentDirectoryURL = Binary.packageRoot
        process.environment = Binary.baseEnvironment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = terminal
        try process.run()
        try terminal.close()
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            // Ends when the last writer closes the terminal (EIO on Linux, 0 elsewhere).
            let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            if count > 0 { received += buffer[0..<count] } else if count < 0, errno == EINTR { continue } else { break }
        }
        process.waitUntilExit()
        return (String(decoding: received, as: UTF8.self), process.terminationStatus)
    }

    @Test func aLargeFileShowsProgressOnATerminalAndErasesIt() throws {
        let folder = try ScratchFolder("progress")
        let log = try Self.largeLog(in: folder)
        let (text, status) = try Self.onTerminal(["-q", log])
        expectEqual(status, 1, "no sync records: no evidence")
        expect(text.contains("parselogs: reading \(log): "))
        expect(text.contains(" MB (") && text.contains(" MB/s"))
        expect(text.hasSuffix("\r\u{1B}[2K"), "erased last: \(text.suffix(80).debugDescription)")
        expect(!text.contains("\n"), "one line, redrawn in place")
    }

    @Test func noProgressInAPipeWithNoProgressOrInACIFormat() throws {
        let folder = try ScratchFolder("progress")
        let log = try Self.largeLog(in: folder)
        let piped = try Binary.run(["-q", log])
        expect(piped.stderr.isEmpty)
        try expect(Self.onTerminal(["-q", "--no-progress", log]).text.isEmpty)
        for format in ["github", "junit", "markdown"] {
            try expect(Self.onTerminal(["--format", format, log]).text.isEmpty, "\(format)")
        }
    }

    @Test func aDumbTerminalGetsNoEscapesAndNoColorNoDimming() throws {
        let folder = try ScratchFolder("progress")
        let log = try Self.largeLog(in: folder)
        let dumb = try Self.onTerminal(["-q", log], environment: ["TERM": "dumb"])
        expect(dumb.text.contains("parselogs: reading"))
        expect(!dumb.text.contains("\u{1B}"))
        expect(dumb.text.hasSuffix(" \r"), "erased with blanks")
        let plain = try Self.onTerminal(["-q", log], environment: ["TERM": "xterm", "NO_COLOR": "1"])
        expect(plain.text.contains("parselogs: reading"))
        expect(!plain.text.contains("\u{1B}[2m"))
        let dimmed = try Self.onTerminal(["-q", log])
        expect(dimmed.text.contains("\u{1B}[2m"), "dimmed where colour is allowed")
    }
}

/// The C library's pseudo-terminal calls, looked up at run time: glibc declares them only for
/// X/Open sources, which Swift's Glibc module does not ask for.
struct PseudoTerminalCalls {
    let open: @convention(c) (Int32) -> Int32
    let grant: @convention(c) (Int32) -> Int32
    let unlock: @convention(c) (Int32) -> Int32
    let name: @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    init?() {
        #if canImport(Glibc)
        let library = dlopen(nil, RTLD_NOW)
        #else
        let library = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #endif
        func symbol<Function>(_ name: String, as type: Function.Type) -> Function? {
            dlsym(library, name).map { unsafeBitCast($0, to: type) }
        }
        guard let open = symbol("posix_openpt", as: (@convention(c) (Int32) -> Int32).self),
              let grant = symbol("grantpt", as: (@convention(c) (Int32) -> Int32).self),
              let unlock = symbol("unlockpt", as: (@convention(c) (Int32) -> Int32).self),
              let name = symbol("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
        else { return nil }
        (self.open, self.grant, self.unlock, self.name) = (open, grant, unlock, name)
    }
}
