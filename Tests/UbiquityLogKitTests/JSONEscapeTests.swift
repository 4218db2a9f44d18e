// JSON Lines' strings are escaped in one pass in C (`cbytescan_json_write`, sixteen or
// thirty-two bytes a step), their UTF-8 checked only when a byte is not ASCII, and the record's
// text written before it is known to be UTF-8. Held here to the escaping it replaced, written
// out byte by byte, on seeded random bytes: control bytes, quotes, backslashes, DEL, `#`,
// valid UTF-8 of every length and bytes that are not UTF-8, at every length around the blocks.
import CByteScan
import Foundation
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct JSONEscapeTests {
    /// What `JSONText.string(utf8:)` wrote before: each byte looked at in turn.
    static func referenceString(_ bytes: [UInt8]) -> [UInt8] {
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = [0x22]
        for byte in bytes {
            switch byte {
            case 0x22, 0x5C: out += [0x5C, byte]
            case 0x0A: out += Array(#"\n"#.utf8)
            case 0x0D: out += Array(#"\r"#.utf8)
            case 0x09: out += Array(#"\t"#.utf8)
            case 0x08: out += Array(#"\b"#.utf8)
            case 0x0C: out += Array(#"\f"#.utf8)
            case ..<0x20, 0x7F: out += Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: out.append(byte)
            }
        }
        return out + [0x22]
    }

    static func isUTF8(_ bytes: [UInt8]) -> Bool { String(validating: bytes, as: UTF8.self) != nil }

    /// A fact's bytes as they were written: checked first, then as they stand or as
    /// `ByteText.string` shows them.
    static func referenceSpan(_ bytes: [UInt8]) -> [UInt8] {
        referenceString(isUTF8(bytes) ? bytes : Array(ByteText.string(bytes).utf8))
    }

    /// A record's `raw` member and closing brace as they were written.
    static func referenceRaw(_ bytes: [UInt8]) -> [UInt8] {
        guard isUTF8(bytes) else { return Array(#","raw":{"bytes":""#.utf8) + Array(Data(bytes).base64EncodedString().utf8) + Array(#""}}"#.utf8) }
        return Array(#","raw":{"text":"#.utf8) + referenceString(bytes) + Array("}}".utf8)
    }

    /// Random bytes of one of four kinds: any bytes; ASCII with the bytes JSON escapes and `#`
    /// among it; valid UTF-8 of one to four bytes a character with those among it; and the
    /// same with one byte changed at random (often no longer UTF-8).
    static func randomBytes(_ generator: inout SeededGenerator) -> [UInt8] {
        let lengths = [0...20, 0...70, 0...300]
        let length = Int.random(in: lengths[Int.random(in: 0..<3, using: &generator)], using: &generator)
        let special: [UInt8] = [0x22, 0x5C, 0x0A, 0x0D, 0x09, 0x08, 0x0C, 0x00, 0x01, 0x1F, 0x7F, 0x23, 0x80, 0xFF, 0xC3]
        let kind = Int.random(in: 0..<4, using: &generator)
        var bytes: [UInt8] = []
        while bytes.count < length {
            switch kind {
            case 0:
                bytes.append(UInt8.random(in: 0...255, using: &generator))
            case 1:
                bytes.append(Int.random(in: 0..<12, using: &generator) == 0 ? special.randomElement(using: &generator) ?? 0 : UInt8.random(in: 0x20...0x7E, using: &generator))
            default:
                if Int.random(in: 0..<10, using: &generator) == 0 {
                    bytes.append(special[Int.random(in: 0..<12, using: &generator)])
                } else {
                    let ranges: [ClosedRange<UInt32>] = [0x20...0x7E, 0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFF, 0x10000...0x10FFFF]
                    let scalar = Unicode.Scalar(UInt32.random(in: ranges.randomElement(using: &generator) ?? 0x20...0x7E, using: &generator)) ?? "a"
                    bytes += Array(String(Character(scalar)).utf8)
                }
            }
        }
        if kind == 3, !bytes.isEmpty { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0x80...0xFF, using: &generator) }
        return bytes
    }

    /// The bytes with bytes to escape right after them, at an offset that moves the blocks
    /// against the buffer's start: a scan that read past the end would write them.
    static func withinLarger<Result>(_ bytes: [UInt8], offset: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let larger = Array(repeating: UInt8(ascii: "\\"), count: offset) + bytes + Array(repeating: 0x22, count: 40)
        return larger.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[offset..<(offset + bytes.count)])) }
    }

    @Test func escapingIsWhatItWasOnRandomBytes() {
        var generator = SeededGenerator(state: 30)
        for round in 0..<2_000 {
            let bytes = Self.randomBytes(&generator)
            let offset = round % 37
            let valid = Self.isUTF8(bytes)

            var span = JSONText()
            Self.withinLarger(bytes, offset: offset) { span.string(maybeUTF8: $0) }
            expectEqual(span.bytes, Self.referenceSpan(bytes), "span \(bytes)")

            var raw = JSONText()
            raw.rawMember(RecordText(bytes))
            expectEqual(raw.bytes, Self.referenceRaw(bytes), "raw \(bytes)")

            var quoted = JSONText()
            let found = Self.withinLarger(bytes, offset: offset) { quoted.quoted($0) }
            expectEqual((found & JSONText.seenNonASCII != 0), bytes.contains { $0 >= 0x80 }, "\(bytes)")
            expectEqual((found & JSONText.seenHash != 0), bytes.contains(0x23), "\(bytes)")
            expectEqual(quoted.seen, found)
            // Bytes not UTF-8 are passed to `quoted` only to be written again; as they stand
            // they are escaped as any other bytes.
            expectEqual(quoted.bytes, Self.referenceString(bytes), "\(bytes)")
            if valid {
                var string = JSONText()
                Self.withinLarger(bytes, offset: offset) { string.string(utf8: $0) }
                expectEqual(string.bytes, Self.referenceString(bytes))
                var text = JSONText()
                text.string(String(decoding: bytes, as: UTF8.self))
                expectEqual(text.bytes, Self.referenceString(bytes))
            }
        }
    }

    /// Every length around the blocks of sixteen and thirty-two, with one byte to escape (or two,
    /// five apart) at every place: the whole blocks, the last block read again over the end, the
    /// padded short ones, and an escape in the last block of each.
    @Test func everyPlaceOfAnEscapeAroundTheBlocks() {
        for length in 0...72 {
            var cases: [[UInt8]] = [Array(repeating: UInt8(ascii: "a"), count: length)]
            for position in 0..<length {
                for special: UInt8 in [0x22, 0x0A, 0x01, 0x7F] {
                    var bytes = Array(repeating: UInt8(ascii: "b"), count: length)
                    bytes[position] = special
                    cases.append(bytes)
                    if position + 5 < length { bytes[position + 5] = 0x5C }
                    cases.append(bytes)
                }
            }
            for bytes in cases {
                for offset in [0, 7] {
                    var json = JSONText()
                    Self.withinLarger(bytes, offset: offset) { json.string(utf8: $0) }
                    if json.bytes != Self.referenceString(bytes) {
                        Issue.record("\(bytes) at \(offset)")
                        return
                    }
                }
            }
        }
    }

    /// The blocks of sixteen are what a processor without AVX2 runs on every text; where this
    /// one has AVX2 they run only on texts shorter than thirty-two, so they are held here to the
    /// dispatching function on the same texts, long ones included.
    @Test func theNarrowBlocksWriteWhatTheDispatcherWrites() {
        var generator = SeededGenerator(state: 31)
        for round in 0..<2_000 {
            var bytes = Self.randomBytes(&generator)
            if round % 2 == 0 { bytes += bytes + bytes }
            if bytes.isEmpty { continue }
            let room = bytes.count * 6 + 16
            var wide = [UInt8](repeating: 0, count: room), narrow = wide
            var wideSeen: UInt32 = 0, narrowSeen: UInt32 = 0
            let wrote = bytes.withUnsafeBufferPointer { source in
                (wide.withUnsafeMutableBufferPointer { cbytescan_json_write($0.baseAddress!, source.baseAddress!, source.count, &wideSeen) },
                 narrow.withUnsafeMutableBufferPointer { cbytescan_json_write_narrow($0.baseAddress!, source.baseAddress!, source.count, &narrowSeen) })
            }
            expectEqual(wrote.0, wrote.1, "\(bytes)")
            expectEqual(wide[..<wrote.0], narrow[..<wrote.1], "\(bytes)")
            expectEqual([0x22] + Array(narrow[..<wrote.1]) + [0x22], Self.referenceString(bytes), "\(bytes)")
            expectEqual(wideSeen, narrowSeen, "\(bytes)")
        }
    }

    /// A JSON line is looked at for `##[` only when a string in it had a `#`; the input's
    /// name, a process and a kind's members are made once, and keep whether theirs had one.
    @Test func aWorkflowCommandIsMadeInertWhereverItComesFrom() throws {
        let header = "2014-03-02 09:14:07.318 Journal[412:60b] "
        let cases: [(input: String, line: String)] = [
            ("##[group]name.log", header + "CoreData: Ubiquity:  Using local storage: 1"),
            ("a.log", header + "CoreData: Ubiquity:  Using local storage: 1 ##[error]x"),
            ("a.log", "2014-03-02 09:14:07.318 ##[warning]p[412:60b] CoreData: Ubiquity:  Using local storage: 1"),
            ("a.log", header + "something ##[error] no rule knows"),
            ("a.log", header + "CoreData: Ubiquity:  Using local storage: 1\n\tand ##[error] on a line after"),
        ]
        for (input, line) in cases {
            let output = CapturedOutput()
            output.writer.workflowCommands = .inertJSON
            let run = LogRun(catalog: try Catalog.standard(), reporters: [JSONLinesReporter(output: output.writer)])
            var source = MemorySource(line + "\n")
            try run.process(&source, name: input)
            run.finish()
            let record = try require(output.text.split(separator: "\n").first { $0.hasPrefix(#"{"type":"record""#) })
            expect(!record.contains("##["), "\(record)")
            expect(record.contains(#"\u0023#["#), "\(record)")
        }
    }
}
