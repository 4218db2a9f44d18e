// Writes a large, realistic, deterministic log for benchmarks (see `LogGenerator`).
//   parselogs-gen-log SIZE_MB SEED [--record-bytes N | --console] > big.log
// On standard error: the bytes and records written and their average length.
import ParselogsDevTools
import UbiquityLogKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let errors = OutputWriter(descriptor: 2)
@MainActor func usage(_ problem: String) -> Never {
    errors.line("parselogs-gen-log: \(problem)")
    errors.line("usage: parselogs-gen-log SIZE_MB SEED [--record-bytes N | --console] > out.log")
    errors.line("  --record-bytes N: records averaging N bytes (at least 350), with the dumps and long lines real logs carry")
    errors.line("  --console: a device console: short lines of 13 interleaved system processes, the synced app's one line in 20")
    errors.flush()
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var recordBytes: Int?
if let flag = arguments.firstIndex(of: "--record-bytes") {
    guard flag + 1 < arguments.count, let value = Int(arguments[flag + 1]) else { usage("--record-bytes needs a number of bytes") }
    // Below the default mix's own average (about 300 bytes) no continuation lines are added and
    // the average asked for is not reached.
    guard value >= 350 else { usage("--record-bytes \(value): the default mix already averages about 300 bytes a record; ask for 350 or more, or leave the option out") }
    recordBytes = value
    arguments.removeSubrange(flag...(flag + 1))
}
var console = false
if let flag = arguments.firstIndex(of: "--console") {
    guard recordBytes == nil else { usage("--console and --record-bytes are two mixes; give one") }
    console = true
    arguments.remove(at: flag)
}
guard arguments.count == 2, let megabytes = Int(arguments[0]), megabytes > 0, let seed = UInt64(arguments[1]) else {
    usage("SIZE_MB (a whole number above 0) and SEED (a whole number) are needed")
}

var generator: LogGenerator
do {
    generator = try LogGenerator(seed: seed, recordBytes: recordBytes, console: console)
} catch {
    errors.line("parselogs-gen-log: the catalogue does not compile: \(error)")
    errors.flush()
    exit(2)
}
let out = OutputWriter(descriptor: 1, capacity: 1 << 20)
var written = 0
var records = 0
let target = megabytes << 20
while written < target {
    let record = generator.next()
    out.write(record.base)
    out.write(record.extra)
    written += record.base.utf8.count + record.extra.utf8.count
    records += record.records
}
out.flush()
errors.line("parselogs-gen-log: \(written) bytes, \(records) records, \(written / max(records, 1)) bytes a record")
errors.flush()
