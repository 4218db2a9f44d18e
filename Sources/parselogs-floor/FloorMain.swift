// Runs `FloorProbe` over a file for scripts/bench-floor, which times it against grep and the
// full run; prints the counts, so that the work shows it was done. Not installed.
//   parselogs-floor lines|headers|search FILE
import ParselogsDevTools
import UbiquityLogKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(CMimalloc)
// Imported for its link: the probe allocates as parselogs does (see Package.swift).
import CMimalloc
#endif

@main
struct FloorMain {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count == 3, let stage = FloorProbe.Stage(rawValue: arguments[1]) else {
            let stages = FloorProbe.Stage.allCases.map(\.rawValue).joined(separator: "|")
            fail("usage: parselogs-floor \(stages) FILE", status: 2)
        }
        do {
            var source = try FileDescriptorSource(path: arguments[2])
            defer { source.close() }
            let counts = try FloorProbe(catalog: try Catalog.standard()).run(&source, through: stage)
            print("\(stage.rawValue): \(counts.lines) lines, \(counts.records) records, \(counts.recognised) recognised")
        } catch {
            // An input error names the input itself.
            fail("parselogs-floor: \(error)", status: 1)
        }
    }

    static func fail(_ message: String, status: Int32) -> Never {
        let errors = OutputWriter(descriptor: 2)
        errors.line(message)
        errors.flush()
        exit(status)
    }
}
