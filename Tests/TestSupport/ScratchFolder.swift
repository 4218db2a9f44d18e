// A folder for the files one test writes, removed when the test lets go of it: test runs
// must not leave logs of megabytes behind in /tmp.
import Foundation

public final class ScratchFolder {
    public let url: URL

    /// A new, empty folder whose name starts with `prefix` and is unique to this process and test.
    public init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` in the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `bytes` to `name` in the folder and returns its path.
    public func write(_ name: String, _ bytes: Data) throws -> String {
        let path = path(name)
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }
}
