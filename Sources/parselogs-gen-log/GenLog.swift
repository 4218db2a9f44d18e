// Writes a large, realistic, deterministic log for benchmarks: the catalogue's own sample
// records (every kind, multi-line dumps and errors included) re-timed and re-headed in
// several header styles, in proportions like a verbose session's, with app lines between.
//   parselogs-gen-log SIZE_MB SEED > big.log
import UbiquityLogKit
#if canImport(Glibc)
import Glibc
#endif

/// SplitMix64: the same log for the same seed on every machine.
struct Generator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

/// A sample's message without the header it was written with.
func message(of sample: String) -> String {
    let prefixes = ["2014-03-02 09:14:07.318 Journal[412:60b] ", "2012-11-20 18:02:41.770 Journal[233:1303] ",
                    "Mar  2 09:14:07 Joes-iPad Journal[412] <Warning>: "]
    for prefix in prefixes where sample.hasPrefix(prefix) { return String(sample.dropFirst(prefix.count)) }
    return sample
}

/// How often a kind's records appear, relative to each other: chatter is common, failures rare.
func weight(_ kind: EventKind) -> Int {
    switch (kind.tier, kind.severity) {
    case (_, .error): 1
    case (_, .warning): 3
    case (.routine, _): 40
    case (.detail, _): 20
    case (.notable, _): 8
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let megabytes = Int(arguments[1]), megabytes > 0, let seed = UInt64(arguments[2]) else {
    let errors = OutputWriter(descriptor: 2)
    errors.line("usage: parselogs-gen-log SIZE_MB SEED > out.log")
    errors.flush()
    exit(2)
}

var messages: [(text: String, weight: Int)] = []
for rule in Catalog.standardRules {
    for sample in rule.samples { messages.append((message(of: sample), weight(rule.kind))) }
}
let appLines = ["Showing 14 entries", "User saved entry \"Walk\"", "Sync status: waiting", "Did receive memory warning",
                "Reloading table view with 3 sections", "Analytics: flushed 12 events"]
messages += appLines.map { ($0, 30) }
let total = messages.reduce(0) { $0 + $1.weight }

var random = Generator(state: seed)
let out = OutputWriter(descriptor: 1, capacity: 1 << 20)
var written = 0
let target = megabytes << 20
var clock = 9 * 3_600_000 + 14 * 60_000  // milliseconds of the day
let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
func three(_ value: Int) -> String { value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)" }

while written < target {
    var pick = random.below(total)
    var chosen = messages[0].text
    for message in messages {
        if pick < message.weight { chosen = message.text; break }
        pick -= message.weight
    }
    clock += random.below(40) + (random.below(100) == 0 ? 3_000 : 0)  // now and then a pause
    let day = 2 + clock / 86_400_000
    let ms = clock % 86_400_000
    let (hour, minute, second, milli) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
    let header: String
    switch random.below(10) {
    case 0..<7: header = "2014-03-\(two(day)) \(two(hour)):\(two(minute)):\(two(second)).\(three(milli)) Journal[412:60b] "
    case 7..<9: header = "\(months[2]) \(day < 10 ? " " : "")\(day) \(two(hour)):\(two(minute)):\(two(second)) Joes-iPad Journal[412] <Warning>: "
    default: header = "2014-03-\(two(day)) \(two(hour)):\(two(minute)):\(two(second)).\(three(milli))000+0100 0x2f1c     Default     0x0                  412    0    Journal: "
    }
    let record = header + chosen + "\n"
    out.write(record)
    written += record.utf8.count
}
out.flush()
