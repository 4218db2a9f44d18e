import Foundation
import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct HeaderParserTests {
    private func header(_ line: String) -> (header: Header, body: String)? {
        let bytes = Array(line.utf8)
        return bytes.withUnsafeBytes { buffer in
            HeaderParser().parse(buffer).map { ($0.header, String(decoding: bytes[$0.bodyStart...], as: UTF8.self)) }
        }
    }

    /// The hand-written header and prefix readers give what the patterns give, on every line of
    /// the fixtures and on headers of every style and prefixes bent every way one byte can bend them.
    @Test func headersByHandAgreeWithThePatterns() throws {
        var lines: [[UInt8]] = []
        for name in ["example.log", "ios6-session.log", "device-console.log", "logshow.log"] {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Binary.fixture(name))))
            lines += bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) }
        }
        let seeds = [
            "2014-03-02 09:14:07.318 Journal[412:60b] -[PFUbiquitySetupAssistant finishSetup](95): CoreData: Ubiquity:  x",
            "2014-03-02 09:14:07:318 My App[412:1203] UbiquityStoreManager: y",
            "2014-03-02 09:14:07,123456 Journal[412] CoreData: error: z",
            "2014-03-02 09:14:07 Journal[412:0x1a2b]hello",
            "2014-03-02 09:14:07.318+0100 Journal[412:60b] w",
            "2014-03-02 09:14:07.318 J[1:2] __52-[_PFUbiquityRecordsImporter x:]_block_invoke_2(1003): CoreData: Ubiquity: CoreData: Ubiquity:\t v",
            "2014-03-02 09:14:07.318 J[1:2] +[PFUbiquityLocation y](12):CoreData: fault: u",
            "2014-03-02 09:14:07.318 J[1:2] -[A b]_block_invoke(7): CoreData: Illegal attempt to return an error",
            "Mar  2 09:14:07 iPad J[1] <Warning>: -[A b:](3): UbiquityStoreManager:Loading",
            "Mar 12 09:14:07 Joes-iPad My App[412]: CoreData: Ubiquity:  x",
            "Dec  2 09:14:07 iPad J[1] <Notice_2>: y",
            // `log show`, with and without the second number, subsystem and zone colon.
            "2016-09-30 10:01:02.123456+0200 0x2f1c     Default     0x0                  412    0    Journal: -[A b](1): CoreData: Ubiquity:  x",
            "2016-09-30T10:01:02.1-02:30\t0x2F1c\tError\t0x1a\t412\tJournal Helper: (CoreData) y",
            "2016-09-30 10:01:02.123+0000 0xA Info 0x0 412 0  : z",
            "2016-09-30 10:01:02.123+0000 0xA Info 0x0 412 7 : z",
            "2016-09-30 10:01:02.123+0000 0xA Info 0x0 412  : z",
            // `log show --style syslog`.
            "2016-09-30 10:01:02.123456+0200  localhost Journal[412]: (CoreData) UbiquityStoreManager: x",
            "2016-09-30 10:01:02.5+02:00 my-mac\tJournal Helper[1]:\ty",
            // Logger timestamps and NSLog with a zone.
            "2014/03/02 09:14:07:318 CoreData: Ubiquity:  x",
            "2014/03/02 09:14:07 UbiquityStoreManager: y",
            "2014-03-02 09:14:07.318-05:00 Journal[412:60b] z",
            // `log stream --style compact`: the type before the process, padded to two.
            "2024-05-01 10:11:12.345 E  MyApp[123:4567] [com.apple.coredata:cloudkit] CoreData+CloudKit: x",
            "2024-05-01 10:11:12.345 Df Trail Notes[123:4567] y",
            "2024-05-01 10:11:12.345 A Tideline[10112:19172] (libsystem_containermanager.dylib) z",
            // Headerless lines (a marker or a method first) and continuation lines that only
            // start like a header.
            "UbiquityStoreManager: Will load cloud store.",
            "CoreData: Ubiquity:  Using local storage: 1",
            "__34-[A b:]_block_invoke_2(12): CoreData: error: x",
            "Mark 2 09:14:07 is not a month",
            "2014 was a year",
        ]
        let alphabet = Array("0123456789 .:,+-[]()_xaZT/<>\t".utf8) + [0xC3, 0x0A, 0x0B, 0x0D]
        var generator = SeededGenerator(state: 7)
        for seed in seeds {
            let bytes = Array(seed.utf8)
            lines.append(bytes)
            for _ in 0..<1500 {
                var bent = bytes
                let at = Int.random(in: 0..<min(bent.count, 120), using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bent[at] = alphabet.randomElement(using: &generator)!
                case 1: bent.insert(alphabet.randomElement(using: &generator)!, at: at)
                default: bent.remove(at: at)
                }
                lines.append(bent)
            }
        }
        lines.append(Array("2014-03-02 09:14:07.1234567 Journal[412:60b] seven digits".utf8))
        lines.append(Array("2014-03-02 09:14:07. Journal[412:60b] no digits".utf8))
        lines.append(Array(("2014-03-02 09:14:07.318 " + String(repeating: "p", count: 200) + "[1:2] x").utf8))
        lines.append(Array(("2014-03-02 09:14:07.318 " + String(repeating: "p", count: 201) + "[1:2] x").utf8))
        lines.append(Array(("2014-03-02 09:14:07.318 P[1:" + String(repeating: "a", count: 20) + "] x").utf8))
        lines.append(Array(("2014-03-02 09:14:07.318 P[1:" + String(repeating: "a", count: 21) + "] x").utf8))
        let styles = headersAgree(lines)
        // Every style is among the lines compared, many times over.
        for style in HeaderStyle.allCases { expect(styles[style, default: 0] > 300, "\(style)") }
    }

    /// A message read without a header (an NDJSON `eventMessage`) may span lines: its logging
    /// method, marker and CloudKit token are read by `cbytescan_prefix_read` looking for line
    /// feeds, as the prefix pattern does, on messages bent every way one byte can bend them.
    @Test func prefixesOfMessagesAgreeWithThePattern() {
        let byHand = HeaderParser()
        let byPattern = HeaderParser()
        byPattern.readsByHand = false
        let seeds = [
            "-[PFUbiquitySetupAssistant finishSetup](95): CoreData: Ubiquity:  x\nmore",
            "__52-[_PFUbiquityRecordsImporter x:]_block_invoke_2(1003): CoreData: Ubiquity: CoreData: Ubiquity:\t v",
            "+[PFUbiquityLocation y](12):CoreData: fault: u",
            "-[A b]_block_invoke(7): CoreData: Illegal attempt to return an error",
            "UbiquityStoreManager:Loading\nsecond line",
            "CoreData: error: CoreData+CloudKit: -[NSCloudKitMirroringDelegate x:](3584): Finished",
            "CoreData: debug: CoreData+CloudKit: [NSCloudKitMirroringDelegate y]block_invoke(12): z",
            "-[A b\n c](1): CoreData: error: split method",
            "message first\nCoreData+CloudKit: on a later line",
        ]
        let alphabet = Array("0123456789 .:,+-[]()_xaZT/<>\t".utf8) + [0xC3, 0x0A, 0x0B, 0x0D]
        var generator = SeededGenerator(state: 11)
        var marked = 0
        for seed in seeds {
            let bytes = Array(seed.utf8)
            for round in 0..<1500 {
                var bent = bytes
                if round > 0 {
                    let at = Int.random(in: 0..<min(bent.count, 80), using: &generator)
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: bent[at] = alphabet.randomElement(using: &generator)!
                    case 1: bent.insert(alphabet.randomElement(using: &generator)!, at: at)
                    default: bent.remove(at: at)
                    }
                }
                bent.withUnsafeBytes { buffer in
                    let hand = byHand.parsePrefix(buffer, from: 0)
                    let pattern = byPattern.parsePrefix(buffer, from: 0)
                    let text = String(decoding: bent, as: UTF8.self)
                    expectEqual(hand.method, pattern.method, "\(text)")
                    expectEqual(hand.sourceLine, pattern.sourceLine, "\(text)")
                    expectEqual(hand.marker, pattern.marker, "\(text)")
                    expectEqual(hand.bodyStart, pattern.bodyStart, "\(text)")
                    if hand.marker != nil { marked += 1 }
                }
            }
        }
        // Most bent messages still start with a marker: they are read, not only refused.
        expect(marked > 6000)
    }

    /// Every byte value, in every place of a date and clock, starts a header in the byte-level
    /// readers (`cbytescan_header_read`) exactly when the patterns say it does.
    @Test func everyByteInEveryPlaceOfADateAndClock() {
        let byHand = HeaderParser()
        let byPattern = HeaderParser()
        byPattern.readsByHand = false
        let lines = [
            ("2014-03-02 09:14:07.318 Journal[412:60b] UbiquityStoreManager: x", 0..<19),
            ("2014/03/02 09:14:07:318 CoreData: Ubiquity:  x", 0..<19),
            ("Mar  2 09:14:07 iPad Journal[412] <Warning>: y", 7..<16),
        ]
        var headers = 0
        for (text, places) in lines {
            for place in places {
                for value in UInt8.min...UInt8.max {
                    var line = Array(text.utf8)
                    line[place] = value
                    line.withUnsafeBytes { buffer in
                        let hand = byHand.parse(buffer)
                        let pattern = byPattern.parse(buffer)
                        expectEqual(hand?.header, pattern?.header, "\(place) \(value) \(text)")
                        expectEqual(hand?.bodyStart, pattern?.bodyStart, "\(place) \(value) \(text)")
                        if hand?.header.time != nil { headers += 1 }
                    }
                }
            }
        }
        // Many of the bent lines still hold a time that can exist (269 of them): the lines
        // compared are headers, not only refusals.
        expect(headers > 200)
    }

    /// Pids of every length (a value only up to 18 digits), with the line ending anywhere after
    /// them, read as the pattern reads them.
    @Test func pidsOfEveryLengthAgreeWithThePattern() {
        let byHand = HeaderParser()
        let byPattern = HeaderParser()
        byPattern.readsByHand = false
        var read = 0
        for length in 1...21 {
            let pid = String(String(repeating: "9081726354", count: 3).prefix(length))
            let whole = "2014-03-02 09:14:07.318 Journal[\(pid):60b] CoreData: Ubiquity:  x"
            let bytes = Array(whole.utf8)
            for end in 32...bytes.count {
                let line = Array(bytes[..<end])
                line.withUnsafeBytes { buffer in
                    let hand = byHand.parse(buffer)
                    let pattern = byPattern.parse(buffer)
                    expectEqual(hand?.header, pattern?.header, "\(String(decoding: line, as: UTF8.self))")
                    expectEqual(hand?.bodyStart, pattern?.bodyStart, "\(String(decoding: line, as: UTF8.self))")
                    if hand?.header.pid != nil { read += 1 }
                }
            }
        }
        // Most of the cut lines still hold a whole header, with its pid.
        expect(read > 300)
    }

    /// Whether the byte-level readers and the patterns read each of `lines` alike (header and
    /// where the body starts); how many of them hold a header of each style.
    private func headersAgree(_ lines: [[UInt8]]) -> [HeaderStyle: Int] {
        let byHand = HeaderParser()
        let byPattern = HeaderParser()
        byPattern.readsByHand = false
        var styles: [HeaderStyle: Int] = [:]
        for line in lines {
            line.withUnsafeBytes { buffer in
                let hand = byHand.parse(buffer)
                let pattern = byPattern.parse(buffer)
                expectEqual(hand?.header, pattern?.header, "\(String(decoding: line, as: UTF8.self))")
                expectEqual(hand?.bodyStart, pattern?.bodyStart, "\(String(decoding: line, as: UTF8.self))")
                if let style = hand?.header.style { styles[style, default: 0] += 1 }
            }
        }
        return styles
    }

    /// Fields of every length from 1 to 40 in every style (a process, a device, a level, a
    /// thread, hex numbers, `log show`'s blank columns, a subsystem), each line cut at every
    /// length, read as the patterns read them. The byte-level readers take runs sixteen or
    /// eight bytes a step where that many bytes are left, and a byte at a time after: here
    /// every field ends in every lane of a step, at every distance from the line's end, and
    /// the marker after the header with fewer than eight bytes left too.
    @Test func fieldsOfEveryLengthCutAnywhereAgreeWithThePatterns() {
        var lines: [[UInt8]] = []
        for length in 1...40 {
            let run = String(String(repeating: "abcdefghij", count: 4).prefix(length))
            let hex = String(String(repeating: "0x9fA3", count: 7).prefix(length))
            let blanks = String(repeating: " ", count: length)
            let texts = [
                "Mar  2 09:14:07 \(run) \(run)[412] <Notice>: UbiquityStoreManager: x",
                "Mar 12 09:14:07 iPad J[1] <N\(run)>: CoreData: Ubiquity:  y",
                "2014-03-02 09:14:07.318 \(run)[412:\(hex)] CoreData: error: z",
                "2016-09-30 10:01:02.123456+0200 0x\(hex)\(blanks)D\(run)\(blanks)0x0\(blanks)412\(blanks)0\(blanks)\(run): w",
                "2016-09-30 10:01:02.123456+0200\(blanks)\(run) \(run)[412]: (\(run)) v",
                "2016-09-30 10:01:02.123+0000 0xA Info 0x0 412\(blanks)\(String(repeating: "7", count: length))\(blanks): u",
            ]
            for text in texts {
                let bytes = Array(text.utf8)
                for end in 0...bytes.count { lines.append(Array(bytes[..<end])) }
            }
        }
        // Most of the cut lines end before their header does; some 3,900 still hold one.
        expect(headersAgree(lines).values.reduce(0, +) > 3000)
    }

    /// Every month's spelling bent in each of its three bytes to every byte value (the month
    /// is found in a table by two of its bytes, then compared), and the day's layouts (one or
    /// two blanks before it, one or two digits, a third of either), read as the patterns read them.
    @Test func monthsTheirNearMissesAndDayLayoutsAgreeWithThePattern() {
        var lines: [[UInt8]] = []
        for month in ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] {
            for place in 0..<3 {
                for value in UInt8.min...UInt8.max {
                    var line = Array("\(month) 29 09:14:07 iPad J[1] <Notice>: x".utf8)
                    line[place] = value
                    lines.append(line)
                }
            }
            for day in [" 2", "  2", " 12", "  12", " 123", "   2", "2", " 2 ", " 0", " 00", " 31", " 32", " 30", " 29"] {
                lines.append(Array("\(month)\(day) 09:14:07 iPad J[1]: x".utf8))
            }
        }
        // Twelve months, each spelt right (and by 3 × 255 bends, most of them not months).
        expect(headersAgree(lines).values.reduce(0, +) > 12 * 10)
    }

    @Test func xcodeNSLogWithMillisecondsMethodAndMarker() throws {
        let parsed = try require(header("2014-03-02 09:14:07.318 Journal[412:60b] -[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:](808): CoreData: Ubiquity:  mobile~6F2C:JournalStore"))
        expectEqual(parsed.header.style, .nslog)
        expectEqual(parsed.header.time, LogTime(year: 2014, month: 3, day: 2, hour: 9, minute: 14, second: 7, microsecond: 318_000, fractionDigits: 3))
        expectEqual(parsed.header.process, "Journal")
        expectEqual(parsed.header.pid, 412)
        expectEqual(parsed.header.thread, "60b")
        expectEqual(parsed.header.method, "-[PFUbiquitySwitchboardEntryMetadata setUseLocalStorage:]")
        expectEqual(parsed.header.sourceLine, 808)
        expectEqual(parsed.header.marker, .ubiquity)
        expectEqual(parsed.body, "mobile~6F2C:JournalStore")
    }

    @Test func colonBeforeMillisecondsAndNoMilliseconds() throws {
        let colon = try require(header("2014-03-02 09:14:07:318 Journal[412:60b] CoreData: Ubiquity:  x"))
        expectEqual(colon.header.time?.microsecond, 318_000)
        let none = try require(header("2014-03-02 09:14:07 Journal[412:60b] UbiquityStoreManager: Will load cloud store."))
        expectEqual(none.header.time?.fractionDigits, 0)
        expectEqual(none.header.marker, .storeManager)
        expectEqual(none.body, "Will load cloud store.")
    }

    @Test func processNamesWithSpaces() throws {
        let parsed = try require(header("2014-03-02 09:14:07.318 Journal Pro[412:60b] hello"))
        expectEqual(parsed.header.process, "Journal Pro")
        expect(parsed.header.marker == nil)
        expectEqual(parsed.body, "hello")
    }

    @Test func deviceConsoleSyslog() throws {
        let parsed = try require(header("Mar  2 09:14:07 Joes-iPad Journal[412] <Warning>: -[PFUbiquityFilePresenter processPendingURLs]_block_invoke(439): CoreData: Ubiquity:  x"))
        expectEqual(parsed.header.style, .syslog)
        expectEqual(parsed.header.device, "Joes-iPad")
        expectEqual(parsed.header.level, "Warning")
        expect(parsed.header.time?.year == nil)
        expectEqual(parsed.header.time?.month, 3)
        expectEqual(parsed.header.method, "-[PFUbiquityFilePresenter processPendingURLs]_block_invoke")
        expectEqual(parsed.header.sourceLine, 439)
        expectEqual(parsed.body, "x")
    }

    @Test func logShowDefaultStyle() throws {
        let parsed = try require(header("2016-09-30 10:01:02.123456+0200 0x2f1c     Default     0x0                  412    0    Journal: (CoreData) CoreData: Ubiquity:  x"))
        expectEqual(parsed.header.style, .logShow)
        expectEqual(parsed.header.time?.microsecond, 123_456)
        expectEqual(parsed.header.time?.utcOffsetMinutes, 120)
        expectEqual(parsed.header.thread, "0x2f1c")
        expectEqual(parsed.header.level, "Default")
        expectEqual(parsed.header.pid, 412)
        expectEqual(parsed.header.process, "Journal")
        expectEqual(parsed.header.marker, .ubiquity)
    }

    /// `log stream --style compact` and `log show --style compact`: the type in a column two
    /// wide, a one-letter type padded with a blank (`E  `), before `process[pid:thread]`; with
    /// one blank or two after it, the process and pid are the header's and the type its level.
    @Test(arguments: ["Df ", "I  ", "I ", "Db ", "E  ", "E ", "Er ", "Fa ", "F  ", "Ft ", "A  ", "A "])
    func compactStyle(type: String) throws {
        let code = type.trimmingCharacters(in: .whitespaces)
        for process in ["MyApp", "Trail Notes"] {
            let line = "2024-05-01 10:11:12.345 \(type)\(process)[123:4567] [com.apple.coredata:cloudkit] CoreData+CloudKit: x"
            let parsed = try require(header(line))
            expectEqual(parsed.header.style, .nslog, "\(line)")
            expectEqual(parsed.header.process, process, "\(line)")
            expectEqual(parsed.header.pid, 123, "\(line)")
            expectEqual(parsed.header.thread, "4567", "\(line)")
            expectEqual(parsed.header.level, code, "\(line)")
            expectEqual(parsed.header.time?.microsecond, 345_000, "\(line)")
        }
    }

    /// A process whose first word only looks like a type keeps it when no process follows.
    @Test func compactTypeWithNothingAfterIt() throws {
        let parsed = try require(header("2024-05-01 10:11:12.345 Df  [123:4567] x"))
        expectEqual(parsed.header.process, "Df  ")
        expect(parsed.header.level == nil)
    }

    @Test func logShowSyslogStyle() throws {
        let parsed = try require(header("2016-09-30 10:01:02.123456+0200  localhost Journal[412]: (CoreData) UbiquityStoreManager: Will load local store."))
        expectEqual(parsed.header.style, .logShowSyslog)
        expectEqual(parsed.header.device, "localhost")
        expectEqual(parsed.header.marker, .storeManager)
        expectEqual(parsed.body, "Will load local store.")
    }

    @Test func loggerTimestamp() throws {
        let parsed = try require(header("2014/03/02 09:14:07:318 UbiquityStoreManager: Will load cloud store."))
        expectEqual(parsed.header.style, .loggerTimestamp)
        expectEqual(parsed.header.time?.microsecond, 318_000)
        expectEqual(parsed.header.marker, .storeManager)
    }

    @Test func linesWithoutATimestamp() throws {
        let block = try require(header("__45-[PFUbiquityFilePresenter processPendingURLs]_block_invoke(439): CoreData: Ubiquity: x"))
        expectEqual(block.header.style, .bare)
        expectEqual(block.header.method, "__45-[PFUbiquityFilePresenter processPendingURLs]_block_invoke")
        expectEqual(block.body, "x")
        try expectEqual(require(header("CoreData: error: something")).header.marker, .coreDataError)
        try expectEqual(require(header("UbiquityStoreManager: Will load cloud store.")).header.marker, .storeManager)
        try expectEqual(require(header("+[PFUbiquityLocation createUbiquityLocationForPath:withUbiquityRootLocation:](219): CoreData: Ubiquity:  Path")).header.sourceLine, 219)
    }

    @Test func theMarkerTwiceAndOneSpace() throws {
        try expectEqual(require(header("2014-03-02 09:14:07.318 J[1:2] CoreData: Ubiquity: CoreData: Ubiquity: Transaction log: x")).body, "Transaction log: x")
        try expectEqual(require(header("2014-03-02 09:14:07.318 J[1:2] CoreData: Ubiquity: x")).body, "x")
    }

    @Test func continuationLinesAreNotHeaders() {
        for line in ["\tlocalPeerID: mobile~6F2C", "    title = Walk;", "})", "Using local storage: 0", "", "2014 was a year",
                     "Marching on", "Error Domain=NSCocoaErrorDomain Code=134302"] {
            expect(header(line) == nil, "\(line)")
        }
    }
}

@Suite struct PackedTimeTests {
    /// A header keeps its time packed (`PackedTime`); whatever time a header is given, it gives
    /// the same back: times that fit, times whose parts do not (kept with the texts), and none.
    @Test func aHeaderGivesBackTheTimeItWasGiven() {
        let times: [LogTime?] = [
            nil,
            LogTime(year: 2014, month: 3, day: 2, hour: 9, minute: 14, second: 7, microsecond: 318_000, fractionDigits: 3),
            LogTime(year: nil, month: 12, day: 31, hour: 23, minute: 59, second: 60),
            LogTime(year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0, microsecond: 999_999, fractionDigits: 6, utcOffsetMinutes: -840),
            LogTime(year: 16382, month: 15, day: 31, hour: 31, minute: 63, second: 63, microsecond: (1 << 20) - 1, fractionDigits: 7,
                    utcOffsetMinutes: Int(Int16.max)),
            // Parts the packed form cannot hold.
            LogTime(year: 16383, month: 1, day: 1, hour: 0, minute: 0, second: 0),
            LogTime(year: -1, month: 1, day: 1, hour: 0, minute: 0, second: 0),
            LogTime(year: 2014, month: 16, day: 1, hour: 0, minute: 0, second: 0),
            LogTime(year: 2014, month: 3, day: 2, hour: 9, minute: 14, second: 7, microsecond: 1 << 20, fractionDigits: 8),
            LogTime(year: 2014, month: 3, day: 2, hour: 9, minute: 14, second: 7, utcOffsetMinutes: Int(Int16.min)),
            LogTime(year: Int.min, month: Int.max, day: Int.min, hour: Int.max, minute: Int.min, second: Int.max,
                    microsecond: Int.min, fractionDigits: Int.max, utcOffsetMinutes: Int.min),
        ]
        for time in times {
            var header = Header(style: .nslog, time: time, process: "Journal")
            expectEqual(header.time, time, "\(String(describing: time))")
            header.thread = "60b"
            expect(header.time == time && header.process == "Journal", "setting a text keeps the time")
            for other in times {
                var changed = header
                changed.time = other
                expect(changed.time == other && changed.process == "Journal" && changed.thread == "60b")
                expectEqual((changed == header), (other == time))
                expectEqual(header.time, time, "the header it was copied from keeps its time")
            }
        }
        expectEqual(Header(style: .bare, time: nil), Header(style: .bare))
        var timeOnly = Header(style: .bare, time: times.last ?? nil)
        timeOnly.time = nil
        expectEqual(timeOnly, Header(style: .bare))
    }
}

@Suite struct CloudKitTokenTests {
    /// The token found by its `+` is the one a search from its first byte finds: the first in
    /// the window, on the first line, wherever other `+`s and partial tokens stand.
    @Test func theTokenIsTheFirstWholeOneOnTheFirstLine() {
        let token = "CoreData+CloudKit:"
        func naive(_ bytes: [UInt8], from start: Int) -> Int? {
            guard start < bytes.count else { return nil }
            let end = min(bytes.count, start + CloudKitToken.window)
            let line = bytes[start..<end].firstIndex(of: 0x0A) ?? end
            let needle = Array(token.utf8)
            guard line - start >= needle.count else { return nil }
            return (start...(line - needle.count)).first { Array(bytes[$0..<$0 + needle.count]) == needle }
        }
        let pieces = ["CoreData+CloudKit:", "CoreData+CloudKit", "Data+CloudKit:", "+", "++", "CoreData:", " ", "\n", "x", "CoreData+",
                      "+CloudKit:", "CoreData+CloudKit:+", String(repeating: "y", count: 120)]
        var generator = SeededGenerator(state: 30)
        var found = 0
        for _ in 0..<4000 {
            var text = ""
            for _ in 0..<Int.random(in: 0..<8, using: &generator) { text += pieces.randomElement(using: &generator)! }
            let bytes = Array(text.utf8)
            for start in [0, 1, 9, 17, max(0, bytes.count - 18)] {
                let expected = naive(bytes, from: start)
                let actual = bytes.withUnsafeBytes { CloudKitToken.find(in: $0, from: start) }
                expectEqual(actual, expected, "\(text) from \(start)")
                if expected != nil { found += 1 }
            }
        }
        expect(found > 1000, "many of the lines hold a token")
    }
}
