// Runs the built `parselogs` binary and captures stdout, stderr and the exit status.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

public struct RunResult: Sendable {
    public var stdout: String
    public var stderr: String
    public var status: Int32
}

public enum Binary {
    /// The package's root folder, found from this file's place in it.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The built binary: $PARSELOGS_BIN, or `parselogs` next to the test bundle.
    public static var path: String {
        if let override = ProcessInfo.processInfo.environment["PARSELOGS_BIN"] { return override }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        // On macOS the runner sits inside a .xctest bundle; on Linux beside the products.
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("parselogs")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
            folder = folder.deletingLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/debug/parselogs").path
    }

    /// What every run of the binary gets: a PATH, and the sanitizers' options when the tests
    /// run under one (`swift test --sanitize=address`: the binary is instrumented too, and its
    /// leak report needs the same suppressions as the test runner's; see docs/development.md).
    public static var baseEnvironment: [String: String] {
        var environment = ["PATH": "/usr/bin:/bin"]
        for (name, value) in ProcessInfo.processInfo.environment
        where ["ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS"].contains(name) {
            environment[name] = value
        }
        return environment
    }

    public static func fixture(_ name: String) -> String {
        packageRoot.appendingPathComponent("fixtures").appendingPathComponent(name).path
    }

    /// Runs the binary with `arguments`, feeding `stdin` (or /dev/null), with `environment`
    /// added to a minimal one (no NO_COLOR, no TERM: output is a pipe anyway).
    /// `executable`, `arguments` and `folder` run another program instead (a shell that runs
    /// the binary on inputs Process cannot pass, such as file names that are not UTF-8).
    public static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:],
                           executable: String? = nil, arguments other: [String]? = nil, in folder: String? = nil) throws -> RunResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable ?? path)
        process.arguments = other ?? arguments
        process.currentDirectoryURL = folder.map { URL(fileURLWithPath: $0) } ?? packageRoot
        process.environment = baseEnvironment.merging(environment) { $1 }
        let output = Pipe()
        let errors = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
        // Read both pipes while the process runs so neither fills up and blocks it.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async { outData = output.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.enter()
        DispatchQueue.global().async { errData = errors.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        group.wait()
        return RunResult(stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self),
                         status: process.terminationStatus)
    }
}

extension Binary {
    /// Runs the binary with `arguments` through /bin/sh, its standard output redirected by
    /// `redirection` (`>/dev/full`, `>&-`: what a Process cannot set up), stderr captured.
    public static func run(_ arguments: [String], stdoutRedirection redirection: String, environment: [String: String] = [:]) throws -> RunResult {
        try run(writingTo: nil, ["-c", "exec \"$0\" \"$@\" \(redirection)", path] + arguments, executable: "/bin/sh", environment: environment)
    }

    /// Runs `executable` (the binary when nil) with `arguments`, `stdout` as its standard output
    /// (a pipe read here when nil).
    public static func run(writingTo stdout: FileHandle?, _ arguments: [String], executable: String? = nil, environment: [String: String] = [:]) throws -> RunResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable ?? path)
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        process.environment = baseEnvironment.merging(environment) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = stdout ?? output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        if stdout == nil {
            group.enter()
            DispatchQueue.global().async { outData = output.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        }
        try? output.fileHandleForWriting.close()
        group.enter()
        DispatchQueue.global().async { errData = errors.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        process.waitUntilExit()
        group.wait()
        return RunResult(stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self),
                         status: process.terminationStatus)
    }
}

/// The binary running with a pipe for its standard input that stays open until closed, as
/// when a device console streams into it; its output is collected as it comes.
public final class LiveBinary {
    public let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    public let collected = OutputCollector()
    /// Signalled when the reading thread has seen the end of the output.
    private let outputEnded = DispatchSemaphore(value: 0)

    public init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = arguments
        process.currentDirectoryURL = Binary.packageRoot
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Our copy of the write end, closed so that the binary's exit is the output's end.
        try? output.fileHandleForWriting.close()
        // A thread of its own reads the output to its end with blocking reads. (Foundation's
        // readabilityHandler on Linux, used before, could still be reading when it was removed
        // at the end, and a loaded machine lost the summary a signal test waited for.)
        let collected = self.collected, reading = output.fileHandleForReading, ended = outputEnded
        Thread.detachNewThread {
            while case let chunk = reading.availableData, !chunk.isEmpty { collected.append(chunk) }
            ended.signal()
        }
    }

    public func write(_ text: String) { input.fileHandleForWriting.write(Data(text.utf8)) }

    /// Waits until the output contains `marker`; false when it did not within `timeout` seconds.
    public func waitForOutput(containing marker: String, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !collected.text.contains(marker) {
            if Date() > deadline { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return true
    }

    /// Waits until the binary has read everything written to its input so far (the pipe holds
    /// no byte), whatever it shows; false when it had not within `timeout` seconds.
    public func waitForInputToBeRead(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            var unread: Int32 = 0
            // FIONREAD on either end of a pipe counts the bytes it holds.
            guard ioctl(input.fileHandleForWriting.fileDescriptor, UInt(FIONREAD), &unread) == 0 else { return false }
            if unread == 0 { return true }
            if Date() > deadline { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// Closes the pipe (or leaves it, if already closed) and waits for the exit status.
    @discardableResult
    public func finish() -> Int32 {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        outputEnded.wait()
        outputEnded.signal()  // a second finish() returns too
        return process.terminationStatus
    }

    deinit { if process.isRunning { process.terminate() } }
}

/// The output a run was waited for did not come.
public struct MissingOutput: Error, CustomStringConvertible {
    public var marker: String
    public var seconds: Double
    public var description: String { "no \(marker) in the output within \(seconds) s" }
}

extension Binary {
    /// Runs the binary on `arguments` followed by `-` (a pipe kept open), waits until its
    /// output shows `marker` (all the named inputs are read), then reads its peak resident
    /// size, and ends it by closing the pipe. Throws `MissingOutput` when the marker does not
    /// come within `timeout` seconds: a peak read before the inputs were read bounds nothing.
    ///
    /// With /proc (Linux) the peak is this child's own (VmHWM), read while it is still alive.
    /// (The rusage of a finished child is no good there: a process spawned from the test runner
    /// starts out counting the runner's own resident size.) Without /proc (macOS) it is
    /// getrusage(RUSAGE_CHILDREN)'s ru_maxrss once the child has ended: a spawned image starts
    /// afresh there, and the figure is the largest of every child this runner has waited for,
    /// so never below this child's peak; a bound it passes holds for this child too.
    public static func peakMemoryKiB(_ arguments: [String], until marker: String, timeout: Double = 60) throws -> (peakKiB: Int, stdout: String) {
        let live = try LiveBinary(arguments + ["-"])
        // The binary shows what it made of the named inputs when `-` falls idle, but it first
        // waits for a byte of `-` (is it gzip?): a blank line gets it past that wait, and adds
        // only an empty app record after the named inputs' records.
        live.write("\n")
        guard live.waitForOutput(containing: marker, timeout: timeout) else {
            live.finish()
            throw MissingOutput(marker: marker, seconds: timeout)
        }
        guard TestPlatform.hasProcFS else {
            live.finish()
            return (childrensPeakKiB(), live.collected.text)
        }
        let status = (try? String(contentsOfFile: "/proc/\(live.process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
            .flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? -1
        live.finish()
        return (peak, live.collected.text)
    }

    /// The largest peak resident size of the children this process has waited for, in KiB
    /// (ru_maxrss is in KiB on Linux, in bytes on Darwin); -1 when getrusage fails.
    static func childrensPeakKiB() -> Int {
        var usage = rusage()
        #if canImport(Darwin)
        guard getrusage(RUSAGE_CHILDREN, &usage) == 0 else { return -1 }
        return Int(usage.ru_maxrss) / 1024
        #else
        guard getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage) == 0 else { return -1 }
        return Int(usage.ru_maxrss)
        #endif
    }
}

/// Output gathered from another thread.
public final class OutputCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    public init() {}
    public func append(_ more: Data) {
        lock.lock(); defer { lock.unlock() }
        data.append(more)
    }
    public var text: String {
        lock.lock(); defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
    }
}
