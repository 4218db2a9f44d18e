// Runs the built `parselogs` binary and captures stdout, stderr and the exit status.
import Foundation

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

    public static func fixture(_ name: String) -> String {
        packageRoot.appendingPathComponent("fixtures").appendingPathComponent(name).path
    }

    /// Runs the binary with `arguments`, feeding `stdin` (or /dev/null), with `environment`
    /// added to a minimal one (no NO_COLOR, no TERM: output is a pipe anyway).
    public static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> RunResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        process.environment = ["PATH": "/usr/bin:/bin"].merging(environment) { $1 }
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
