import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct SummaryTests {
    let log = """
    2014-03-02 09:14:05.001 Journal[412:60b] App started
    2014-03-02 09:14:05.121 Journal[412:60b] UbiquityStoreManager: Will load cloud store.
    2014-03-02 09:14:05.200 Journal[412:60b] CoreData: error: -addPersistentStoreWithType:SQLite configuration:(null) URL:file:///a/Journal.sqlite options:{} ... returned error Error Domain=NSCocoaErrorDomain Code=134080 "x" UserInfo=0x1 {reason=y}
    2014-03-02 09:14:05.300 Journal[412:60b] UbiquityStoreManager: Failed to load cloud store.
    2014-03-02 09:14:05.301 Journal[412:60b] UbiquityStoreManager: Will load local store.
    2014-03-02 09:14:05.400 Journal[412:60b] UbiquityStoreManager: Successfully loaded local store.
    2014-03-02 09:14:06.000 Journal[412:60b] CoreData: Ubiquity:  Import operation encountered an error: Error Domain=NSCocoaErrorDomain Code=134302 "x" UserInfo=0x1 {}
    userInfo: {}. While trying to import the log file at the URL: file:///a/b/c.1.cdt
    2014-03-02 09:14:06.100 Journal[412:60b] UbiquityStoreManager: Cloud content corruption detected (device store is healthy).
    2014-03-02 09:14:06.200 Journal[412:60b] CoreData: Ubiquity:  Something unknown
    2014-03-02 09:14:06.300 Journal[412:60b] CoreData: error: -addPersistentStoreWithType:SQLite configuration:(null) URL:file:///a/Other.sqlite options:{} ... returned error Error Domain=NSCocoaErrorDomain Code=134100 "x" UserInfo=0x1 {}
    """

    @Test func countsAddUp() throws {
        let summary = try summarize([("a.log", log)])
        expectEqual(summary.lines, 11)
        expectEqual(summary.records, 10)
        expectEqual(summary.syncRecords, 9)
        expectEqual(summary.unhandled, 1)
        // Two store manager attempts, and one add-store failure outside any attempt.
        expectEqual(summary.ubiquity.storeLoads.attempted, 3)
        expectEqual(summary.ubiquity.storeLoads.succeeded, [.local: 1])
        expectEqual(summary.ubiquity.storeLoads.failed, [.cloud: 1, .unknown: 1])
        expectEqual(summary.ubiquity.importFailures.map(\.line), [7])
        expectEqual(summary.ubiquity.importFailures.first?.message, "Import failed for log c.1.cdt: NSCocoaErrorDomain 134302: x")
        expectEqual(summary.ubiquity.corruptionReports.map(\.line), [9])
        // Errors: two add-store failures, the load failure, the import failure, the corruption.
        expectEqual(summary.errors, 5)
    }

    @Test func inputsAreCountedSeparately() throws {
        let summary = try summarize([("a.log", "x\ny\n"), ("b.log", "z")])
        expectEqual(summary.inputs, ["a.log", "b.log"])
        expectEqual(summary.lines, 3)
        expectEqual(summary.records, 2)
    }
}

@Suite struct OutputTextTests {
    @Test func invalidUTF8IsShownAsHexEscapes() {
        expectEqual(ByteText.string([0x61, 0xFF, 0x62]), "a\\xFFb")
        expectEqual(ByteText.string([0xC0, 0xAF]), "\\xC0\\xAF")  // overlong
        expectEqual(ByteText.string([0xED, 0xA0, 0x80]), "\\xED\\xA0\\x80")  // surrogate
        expectEqual(ByteText.string(Array("héllo".utf8)), "héllo")
        expectEqual(ByteText.string([0xE2, 0x82]), "\\xE2\\x82")  // cut short
    }

    /// The byte check that lets text be decoded without Swift's validator accepts exactly what
    /// that validator accepts: every lead byte, every second byte, and the edges of the range
    /// for the bytes after.
    @Test func theUTF8CheckAgreesWithSwifts() {
        let tails: [UInt8] = [0x41, 0x80, 0xBF, 0xC0]
        for first in UInt8(0x80)...0xFF {
            for second in UInt8(0)...0xFF {
                for third in tails {
                    for fourth in tails {
                        let bytes = [first, second, third, fourth]
                        let swift = String(validating: bytes, as: UTF8.self)
                        if ByteText.isValidUTF8(bytes) != (swift != nil) { Issue.record("\(bytes)"); return }
                        if let swift, ByteText.string(bytes) != swift { Issue.record("\(bytes)"); return }
                    }
                }
            }
        }
    }

    @Test func controlCharactersNeverReachTheTerminal() {
        expectEqual(ByteText.terminalSafe("a\u{1B}[31mb\tc"), "a\\x1B[31mb\tc")
        expectEqual(ByteText.terminalSafe("\u{9B}x"), "\\u{9B}x")
        expectEqual(ByteText.terminalSafe("plain"), "plain")
        // The timeline's byte-level form agrees, around multi-byte letters and next to C1's
        // neighbours (U+00A0 and U+0100 share bytes with C1 controls and are not escaped), and
        // in texts long enough for runs of plain words read eight bytes at a time.
        let pieces = ["a", "é", "\u{80}", "\u{9F}", "\u{A0}", "\u{100}", "\u{1B}[31m", "\t", "\n", "\u{7F}", "\u{0}", "💥", " ",
                      "plain words", "~"]
        var generator = SeededGenerator(state: 5)
        for _ in 0..<2000 {
            let text = (0..<Int.random(in: 0...30, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            var buffer = ByteBuffer()
            var copy = text
            copy.withUTF8 { ByteText.appendTerminalSafe($0, to: &buffer) }
            expectEqual(String(decoding: buffer.array, as: UTF8.self), ByteText.terminalSafe(text), "\(text.debugDescription)")
        }
    }

    @Test func jsonEscaping() {
        expectEqual(JSON.quote("a\"b\\c\nd\u{01}é"), #""a\"b\\c\nd\u0001é""#)
        // Every byte JSON escapes, at every place in texts longer than the sixteen bytes the
        // writer's scan reads at once (in the first block, the second, the tail that is read
        // a byte at a time), next to multi-byte letters, and a second one after it.
        func reference(_ text: String) -> String {
            "\"" + text.unicodeScalars.map { scalar -> String in
                switch scalar.value {
                case 0x22: return "\\\""
                case 0x5C: return "\\\\"
                case 0x0A: return "\\n"
                case 0x0D: return "\\r"
                case 0x09: return "\\t"
                case 0x08: return "\\b"
                case 0x0C: return "\\f"
                case 0..<0x20, 0x7F: return String(format: "\\u%04x", scalar.value)
                default: return String(scalar)
                }
            }.joined() + "\""
        }
        for special in (0..<0x20).map({ String(UnicodeScalar(UInt8($0))) }) + ["\"", "\\", "\u{7F}", "!", "#", "[", "]", "~", "\u{80}"] {
            for position in 0...30 {
                var characters = Array("abcdefghijé klmnopqrstuvwxyz~ ".map(String.init))
                characters.insert(special, at: position)
                if position < 12 { characters.insert("\n", at: position + 18) }
                let text = characters.joined()
                expectEqual(JSON.quote(text), reference(text), "\(text.debugDescription)")
            }
        }
        expectEqual(JSON.object([Field("n", .int(3)), Field("l", .list([.bool(true), .string("x")]))]), #"{"n":3,"l":[true,"x"]}"#)
    }

    @Test func logTimeFormats() {
        let time = LogTime(year: 2014, month: 3, day: 2, hour: 9, minute: 14, second: 7, microsecond: 318_000, fractionDigits: 3)
        expectEqual(time.iso8601, "2014-03-02T09:14:07.318")
        expectEqual(time.clock, "09:14:07.318")
        let syslog = LogTime(year: nil, month: 3, day: 2, hour: 9, minute: 14, second: 7)
        expectEqual(syslog.iso8601, "--03-02T09:14:07")
        let zoned = LogTime(year: 2016, month: 9, day: 30, hour: 10, minute: 1, second: 2, microsecond: 123_456, fractionDigits: 6, utcOffsetMinutes: -330)
        expectEqual(zoned.iso8601, "2016-09-30T10:01:02.123456-05:30")
        expectEqual(zoned.clock(maxFractionDigits: 3), "10:01:02.123")
        let early = LogTime(year: 7, month: 1, day: 9, hour: 0, minute: 0, second: 0, microsecond: 5_000, fractionDigits: 2, utcOffsetMinutes: 60)
        expectEqual(early.iso8601, "0007-01-09T00:00:00.00+01:00", "zeros kept in every field, the fraction's leading ones too")
        expectEqual(LogTime(year: 2014, month: 3, day: 2, hour: 9, minute: 14, second: 7, microsecond: 7, fractionDigits: 6).clock, "09:14:07.000007")
        // Values no header gives still print whole: more digits than the width, signs, the
        // widest Int in every field.
        expectEqual(LogTime(year: 2014, month: 3, day: 2, hour: 9, minute: 14, second: 7, microsecond: 12_345_678, fractionDigits: 3).clock, "09:14:07.123")
        expectEqual(LogTime(year: 2014, month: 3, day: 2, hour: 9, minute: 14, second: 7, microsecond: -5, fractionDigits: 3).clock, "09:14:07.-00")
        let widest = LogTime(year: Int.min, month: Int.max, day: Int.min, hour: Int.max, minute: Int.min, second: Int.max,
                             microsecond: Int.min, fractionDigits: 6, utcOffsetMinutes: Int.max)
        expectEqual(widest.iso8601, "-9223372036854775808-9223372036854775807--9223372036854775808T9223372036854775807:"
                + "-9223372036854775808:9223372036854775807.-92233+153722867280912930:07")
        expectEqual(LogTime(year: 2014, month: 3, day: 2, hour: 0, minute: 0, second: 1).microsecondsSinceEpoch
                - LogTime(year: 2014, month: 3, day: 1, hour: 23, minute: 59, second: 59).microsecondsSinceEpoch, 2_000_000)
    }
}

@Suite struct TimeDifferenceTests {
    /// The same-day shortcut gives what the full count of days gives, on one day and across
    /// days, months, years and a missing year.
    @Test func theClockAloneAgreesWithTheCalendar() {
        func full(_ later: LogTime, _ earlier: LogTime) -> Int64 {
            let year = later.year ?? earlier.year ?? 2000
            return later.microseconds(assumingYear: year) - earlier.microseconds(assumingYear: earlier.year ?? year)
        }
        var generator = SeededGenerator(state: 11)
        var times: [LogTime] = []
        for _ in 0..<300 {
            times.append(LogTime(year: [nil, 2014, 2015].randomElement(using: &generator)!, month: Int.random(in: 1...2, using: &generator),
                                 day: Int.random(in: 1...2, using: &generator), hour: Int.random(in: 0...23, using: &generator),
                                 minute: Int.random(in: 0...59, using: &generator), second: Int.random(in: 0...59, using: &generator),
                                 microsecond: Int.random(in: 0...999_999, using: &generator), fractionDigits: 6))
        }
        var sameDay = 0
        for later in times {
            for earlier in times.prefix(60) {
                expectEqual(later.microseconds(since: earlier), full(later, earlier), "\(later) since \(earlier)")
                if later.year == earlier.year, later.month == earlier.month, later.day == earlier.day { sameDay += 1 }
            }
        }
        expect(sameDay > 500)
    }
}

@Suite struct ByteBufferTests {
    /// A copy keeps what it held when either side appends or empties afterwards, across
    /// growth well past the first room.
    @Test func aCopyIsAValue() {
        var buffer = ByteBuffer()
        var expected: [UInt8] = []
        for round in 0..<2000 {
            let piece = Array("piece \(round),".utf8)
            var copy = buffer
            let before = expected
            buffer.append(piece)
            expected += piece
            expectEqual(copy.array, before)
            copy.append(UInt8(ascii: "!"))
            expectEqual(copy.array, before + [UInt8(ascii: "!")])
            if round % 500 == 499 {
                var emptied = buffer
                emptied.removeAll()
                expect(emptied.isEmpty)
            }
        }
        expectEqual(buffer.array, expected)
        buffer.append("literal")
        buffer.append(string: "é")
        expectEqual(buffer.array, expected + Array("literalé".utf8))
    }
}

@Suite struct JSONTextTests {
    /// Numbers are written digit by digit: every width, both signs and the ends of Int read
    /// as Swift writes them.
    @Test func numbersAreWrittenAsSwiftWritesThem() {
        var numbers = [0, 1, 9, 10, 99, 100, 101, 1_000_000, Int.max, Int.min, Int.min + 1]
        var power = 1
        for _ in 0..<18 {
            power *= 10
            numbers += [power - 1, power, power + 1]
        }
        for number in numbers + numbers.map({ $0 == Int.min ? $0 : -$0 }) {
            var json = JSONText()
            json.int(number)
            expectEqual(json.text, String(number))
        }
    }

    /// A record's leading members are written as the members one by one wrote them: the
    /// time from its fields as `iso8601` prints it (the usual times, fractions of every
    /// width, offsets both ways, no year, and values no header gives), numbers of every
    /// size, and the optional members present or not.
    @Test func aRecordsHeadIsWrittenAsItsMembersWouldBe() {
        var times: [LogTime?] = [nil]
        for digits in 0...8 {
            times.append(LogTime(year: 2014, month: 3, day: 2, hour: 9, minute: 14, second: 7, microsecond: 318_046, fractionDigits: digits))
        }
        times += [
            LogTime(year: nil, month: 3, day: 2, hour: 9, minute: 14, second: 7),
            // Fractions whose leading digits are zeros, each digit written from a pair.
            LogTime(year: 2014, month: 3, day: 2, hour: 9, minute: 14, second: 7, microsecond: 7, fractionDigits: 6),
            LogTime(year: 2014, month: 3, day: 2, hour: 9, minute: 14, second: 7, microsecond: 90_509, fractionDigits: 5),
            LogTime(year: 1, month: 0, day: 0, hour: 0, minute: 0, second: 0, microsecond: 999_999, fractionDigits: 1, utcOffsetMinutes: 0),
            LogTime(year: 7, month: 1, day: 9, hour: 0, minute: 0, second: 0, microsecond: 5_000, fractionDigits: 2, utcOffsetMinutes: 60),
            LogTime(year: 2016, month: 9, day: 30, hour: 23, minute: 59, second: 60, microsecond: 999_999, fractionDigits: 6, utcOffsetMinutes: -330),
            LogTime(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59, utcOffsetMinutes: 5999),
            LogTime(year: 2014, month: 3, day: 2, hour: 9, minute: 14, second: 7, utcOffsetMinutes: -6000),
            LogTime(year: 10_000, month: 3, day: 2, hour: 9, minute: 14, second: 7),
            LogTime(year: -1, month: 3, day: 2, hour: 9, minute: 14, second: 7),
            LogTime(year: 2014, month: 100, day: 2, hour: 9, minute: 14, second: 7),
            LogTime(year: 2014, month: 3, day: 2, hour: -1, minute: 14, second: 7),
            LogTime(year: 2014, month: 3, day: 2, hour: 9, minute: 14, second: 7, microsecond: 12_345_678, fractionDigits: 3),
            LogTime(year: 2014, month: 3, day: 2, hour: 9, minute: 14, second: 7, microsecond: -5, fractionDigits: 3),
            LogTime(year: 2014, month: 3, day: 2, hour: 9, minute: 14, second: 7, microsecond: -5, fractionDigits: 0),
            LogTime(year: Int.min, month: Int.max, day: Int.min, hour: Int.max, minute: Int.min, second: Int.max,
                    microsecond: Int.min, fractionDigits: 6, utcOffsetMinutes: Int.max),
        ]
        let numbers = [0, 7, 10, 99, 412, 1_000_000, Int.max, -1, Int.min]
        for (index, time) in times.enumerated() {
            let line = numbers[index % numbers.count]
            let pid: Int? = index % 3 == 0 ? nil : numbers[(index + 4) % numbers.count]
            let process: [UInt8]? = index % 2 == 0 ? nil : Array(#","process":"Journal""#.utf8)
            let input = Array(#""a \"log\".txt""#.utf8)
            let head = Array(#"{"type":"record","input":"#.utf8) + input + Array(#","line":"#.utf8)
            let kind = Array(#","kind":"k","category":"c","severity":"info","message":"#.utf8)
            var expected = #"{"type":"record","input":"# + String(decoding: input, as: UTF8.self) + #","line":\#(line),"lines":\#(index),"time":"#
            expected += time.map { "\"\($0.iso8601)\"" } ?? "null"
            expected += process.map { String(decoding: $0, as: UTF8.self) } ?? ""
            expected += pid.map { #","pid":\#($0)"# } ?? ""
            expected += String(decoding: kind, as: UTF8.self)
            // The time as a LogTime, and as the bits a header packs it into where it fits them.
            var json = JSONText()
            json.recordHead(head, line: line, lines: index, clock: PackedTime(), time: time, process: process, pid: pid, kind: kind)
            expectEqual(json.text, expected)
            if let time, let packed = PackedTime(time) {
                var fromBits = JSONText()
                fromBits.recordHead(head, line: line, lines: index, clock: packed, time: nil, process: process, pid: pid, kind: kind)
                expectEqual(fromBits.text, expected, "\(time)")
            }
        }
    }

    /// The timeline's clock and its gaps, read from the bits a header packs a time into, are
    /// what the LogTime gives.
    @Test func aPackedTimesClockAndGapAreTheLogTimes() {
        var times: [LogTime] = []
        for digits in 0...7 {
            times.append(LogTime(year: 2014, month: 3, day: 2, hour: 9, minute: 14, second: 7, microsecond: 318_046, fractionDigits: digits))
        }
        times += [
            LogTime(year: nil, month: 3, day: 2, hour: 9, minute: 14, second: 9, microsecond: 7, fractionDigits: 6),
            LogTime(year: nil, month: 3, day: 3, hour: 0, minute: 0, second: 1),
            LogTime(year: 2015, month: 3, day: 2, hour: 23, minute: 59, second: 60, microsecond: 999_999, fractionDigits: 3, utcOffsetMinutes: -330),
            LogTime(year: 2014, month: 12, day: 31, hour: 0, minute: 0, second: 0, microsecond: 1_048_575, fractionDigits: 3),
        ]
        for time in times {
            guard let packed = PackedTime(time) else { continue }
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { room in
                var out = ByteCursor(room.baseAddress!)
                if out.clock(packed, maxFractionDigits: 3) {
                    expectEqual(String(decoding: UnsafeBufferPointer(rebasing: room[..<out.count]), as: UTF8.self), time.clock(maxFractionDigits: 3))
                } else {
                    expectEqual(time.microsecond >= 1_000_000, true)
                }
            }
            for earlier in times {
                guard let earlierPacked = PackedTime(earlier),
                      let delta = packed.microseconds(sinceSameDayOrNoYear: earlierPacked) else { continue }
                expectEqual(delta, time.microseconds(since: earlier), "\(time) since \(earlier)")
            }
        }
    }

    /// Strings are escaped alike whether Swift keeps them inline (small), in storage of their
    /// own, or as a slice's copy.
    @Test func stringsAreEscapedWhereverTheyAreKept() {
        for text in ["", "a", "tab\there", "quote\" and \\", "é\u{7}", "a longer string than fifteen bytes, with \n a line end", String(repeating: "\u{1}", count: 40)] {
            var json = JSONText()
            json.string(text)
            var bytes = JSONText()
            Array(text.utf8).withUnsafeBufferPointer { bytes.string(utf8: $0) }
            expectEqual(json.text, bytes.text, "\(text.debugDescription)")
            expectEqual(JSON.quote(String(Substring(text))), bytes.text)
        }
    }

    /// The escape scan reads short texts as one padded block and the end of a longer one as
    /// its last sixteen bytes again: a byte to escape is found at every place of every length
    /// (none, one, or two of them), and bytes just past the end, read by neither, are left
    /// to the text that follows.
    @Test func theEscapeScanFindsEveryByteAndNoneBeyondTheEnd() {
        func reference(_ bytes: [UInt8]) -> String {
            "\"" + bytes.map { byte -> String in
                switch byte {
                case 0x22: return "\\\""
                case 0x0A: return "\\n"
                case 0x01: return "\\u0001"
                default: return String(UnicodeScalar(byte))
                }
            }.joined() + "\""
        }
        // Past every text's end: bytes the scan would stop at if it read them.
        let after: [UInt8] = Array(repeating: 0x22, count: 20)
        for length in 0...40 {
            var cases: [[UInt8]] = [Array(repeating: UInt8(ascii: "a"), count: length)]
            for position in 0..<length {
                for special: UInt8 in [0x22, 0x0A, 0x01] {
                    var bytes = Array(repeating: UInt8(ascii: "b"), count: length)
                    bytes[position] = special
                    cases.append(bytes)
                    if position + 5 < length { bytes[position + 5] = 0x22 }
                    cases.append(bytes)
                }
            }
            for bytes in cases {
                var json = JSONText()
                (bytes + after).withUnsafeBufferPointer { json.string(utf8: UnsafeBufferPointer(rebasing: $0[..<length])) }
                expectEqual(json.text, reference(bytes), "\(bytes)")
            }
        }
    }

    /// A fields object writes its own commas, so it sits in an object being built member by
    /// member, in a list, or inside itself, as the members around it expect.
    @Test func nestedObjectsAndListsHaveTheirCommas() {
        var json = JSONText()
        json.openObject()
        json.key("a")
        json.object([Field("x", .int(1))])
        json.key("b")
        json.value(.list([.object([]), .object([Field("y", .list([])), Field("z", .list([.int(2), .list([.bool(false), .string("s")])]))])]))
        json.key("c")
        json.value(.object([Field("o", .object([Field("p", .int(3)), Field("q", .int(4))])), Field("r", .int(5))]))
        json.closeObject()
        expectEqual(json.text, #"{"a":{"x":1},"b":[{},{"y":[],"z":[2,[false,"s"]]}],"c":{"o":{"p":3,"q":4},"r":5}}"#)
        expectEqual(JSON.object([]), "{}")
        expectEqual(JSON.value(.list([])), "[]")
    }

    /// The ASCII scan hands every byte at or above 0x80 to the UTF-8 check, wherever it falls.
    @Test func theUTF8CheckFindsNonASCIIAnywhere() {
        let sequences: [[UInt8]] = [[0xC3, 0xA9], [0xFF], [0xE2, 0x82], [0xF0, 0x9F, 0x92, 0xA5], [0x80]]
        for length in 0...40 {
            for position in 0...length {
                for sequence in sequences {
                    var bytes = [UInt8](repeating: 0x61, count: length)
                    bytes.insert(contentsOf: sequence, at: position)
                    let valid = String(validating: bytes, as: UTF8.self) != nil
                    if ByteText.isValidUTF8(bytes) != valid {
                        Issue.record("\(bytes)")
                        return
                    }
                }
            }
        }
    }
}

@Suite struct TimeTextTests {
    /// Digits padded to a width, as `String` and zeros would write them, for every width up to
    /// 8 and the values around each power of ten (the fixed-width path and the general one).
    @Test func digitsArePaddedToTheirWidth() {
        var values = [0, 1, 9, -1, -10]
        var power = 1
        for _ in 0..<8 {
            power *= 10
            values += [power - 1, power, power + 1]
        }
        for width in 0...8 {
            for value in values {
                var bytes: [UInt8] = []
                TimeText.write(into: &bytes) { $0.digits(value, width: width) }
                let magnitude = String(value.magnitude)
                let expected = (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - magnitude.count)) + magnitude
                expectEqual(String(decoding: bytes, as: UTF8.self), expected, "\(value) in \(width)")
            }
        }
    }
}

@Suite struct TimeBoundTests {
    @Test func boundsParse() {
        expectEqual(LogTime(parsing: "2014-03-02"), LogTime(year: 2014, month: 3, day: 2, hour: 0, minute: 0, second: 0))
        expectEqual(LogTime(parsing: "2014-03-02 09:14"), LogTime(year: 2014, month: 3, day: 2, hour: 9, minute: 14, second: 0))
        expectEqual(LogTime(parsing: "2014-03-02T09:14:07.318"), LogTime(year: 2014, month: 3, day: 2, hour: 9, minute: 14, second: 7, microsecond: 318_000, fractionDigits: 3))
        expectEqual(LogTime(parsingEndOf: "2014-03-02")?.iso8601, LogTime(year: 2014, month: 3, day: 2, hour: 23, minute: 59, second: 59, microsecond: 999_999).iso8601)
        expectEqual(LogTime(parsingEndOf: "2014-03-02 09:14")?.microsecondsSinceEpoch, LogTime(year: 2014, month: 3, day: 2, hour: 9, minute: 14, second: 59, microsecond: 999_999).microsecondsSinceEpoch)
        expectEqual(LogTime(parsingEndOf: "2014-03-02 09:14:07.5")?.microsecond, 599_999, "the whole tenth of a second (issue #41)")
        for bad in ["", "2014", "2014-3-2", "2014-03-02 9:14", "2014-03-02 09:14:07.", "2014-02-30x", "14-03-02"] {
            expect(LogTime(parsing: bad) == nil, "\(bad)")
        }
    }
}

@Suite struct SummaryTextTests {
    @Test func evidenceIsCappedWithACount() throws {
        let failure = "2014-03-02 09:14:06.000 J[1:2] CoreData: Ubiquity:  Import operation encountered an error: Error Domain=NSCocoaErrorDomain Code=134302 \"x\" UserInfo=0x1 {}\n"
        let summary = try summarize([("a.log", String(repeating: failure, count: 15))])
        expectEqual(summary.ubiquity.importFailureCount, 15)
        let lines = SummaryText.lines(summary)
        expectEqual(lines.filter { $0.hasPrefix("    a.log:") && $0.contains("  import-failed  ") }.count, 10, "evidence rows, not the incident or verdict lines")
        expect(lines.contains("    … and 5 more (all are in --format jsonl)"))
    }
}

@Suite struct PercentEncodedSpaceTests {
    /// The byte-level replacement of an ASCII URL gives what Swift's `replacing` gives, on
    /// texts with and without escaped spaces; other texts are left to `replacing`, which
    /// reads them by Characters.
    @Test func spacesAreReplacedAsReplacingWould() {
        let texts = ["", "%", "%2", "%20", "%%20", "%2%20", "a%20b%20%20c%20", "file:///var/mobile/Application%20Support/Store.sqlite",
                     "no spaces at all", "%200", "20%", "é%20x", "%20\u{301}", String(repeating: "%20", count: 50)]
        for text in texts {
            expectEqual(text.removingPercentEncodedSpaces, text.replacing("%20", with: " "), "\(text.debugDescription)")
            // The system stores' paths read it as the pieces between escaped spaces, joined.
            expectEqual(text.removingPercentEncodedSpaces, text.split(separator: "%20", omittingEmptySubsequences: false).joined(separator: " "),
                        "\(text.debugDescription)")
        }
    }
}
