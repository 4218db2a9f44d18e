import Testing
import TestSupport
@testable import UbiquityLogKit

@Suite struct InputFormatTests {
    private func run(_ text: String, format: InputFormat) throws -> [(Record, Event)] {
        final class Collect: Reporter {
            var items: [(Record, Event)] = []
            func report(_ item: ClassifiedRecord) { items.append((item.record, item.event)) }
            func finish(_ summary: RunSummary) {}
        }
        let collect = Collect()
        let run = LogRun(catalog: try Catalog.standard(), reporters: [collect])
        run.inputFormat = format
        var source = MemorySource(text)
        try run.process(&source, name: "t")
        run.finish()
        return collect.items
    }

    let event = #"{"eventMessage":"UbiquityStoreManager: Will load cloud store.","timestamp":"2016-09-30 10:01:02.123456+0200","processImagePath":"\/Applications\/Journal.app\/Contents\/MacOS\/Journal","processID":412,"threadID":12060,"messageType":"Default","backtrace":{"frames":[{"a":1}]}}"#

    @Test func ndjsonIsDetectedAndEachObjectIsARecord() throws {
        let items = try run(event + "\n" + event.replacing("Will load cloud", with: "Successfully loaded cloud") + "\n", format: .auto)
        expectEqual(items.map(\.1), [.storeLoadStarted(.cloud, store: nil), .storeLoadSucceeded(.cloud)])
        let header = try require(items.first?.0.header)
        expectEqual(header.process, "Journal")
        expectEqual(header.pid, 412)
        expectEqual(header.thread, "12060")
        expectEqual(header.level, "Default")
        expectEqual(header.time?.iso8601, "2016-09-30T10:01:02.123456+02:00")
    }

    @Test func linesThatAreNotEventsAreRecordsOfTheirOwn() throws {
        let items = try run("[\n" + event + "\n{not json\n\n", format: .ndjson)
        expectEqual(items.map(\.0.firstLine), [1, 2, 3, 4])
        expectEqual(items.map(\.1.kind.id), ["app", "store-load-started", "app", "app"])
    }

    @Test func textIsNotTakenForNDJSON() throws {
        let items = try run("2014-03-02 09:14:05.121 Journal[412:60b] UbiquityStoreManager: Will load cloud store.\n{\"eventMessage\":\"x\"}\n", format: .auto)
        expectEqual(items.count, 1, "a JSON line after a text first line continues the record")
    }

    @Test func aTextFormatOnlyStartsRecordsAtItsHeaders() throws {
        let mixed = "Mar  2 09:14:07 pad Journal[412] <Notice>: UbiquityStoreManager: Will load cloud store.\n2014-03-02 09:14:05.121 Journal[412:60b] not a header in syslog format\n"
        try expectEqual(run(mixed, format: .syslog).map(\.0.lineCount), [2])
        try expectEqual(run(mixed, format: .nslog).map(\.0.lineCount), [1, 1], "the syslog line is text before any header")
        try expectEqual(run(mixed, format: .auto).map(\.0.lineCount), [1, 1])
    }

    @Test func flatJSONDecodesStringsAndSkipsNesting() throws {
        let line = Array(#" {"a":"x\ny\u00e9\ud83d\ude00\"","n":-1.5e3,"t":true,"z":null,"o":{"k":[1,{"q":"}"}]},"e":""} "#.utf8)
        let object = try require(line.withUnsafeBytes { FlatJSON.object($0) })
        expectEqual(object["a"], "x\nyé😀\"")
        expectEqual(object["n"], "-1.5e3")
        expectEqual(object["t"], "true")
        expectEqual(object["z"], "null")
        expectEqual(object["o"], "")
        expectEqual(object["e"], "")
        for bad in ["", "[]", "{", #"{"a":}"#, #"{"a":"x"} trailing"#, #"{"a" "x"}"#] {
            expect(Array(bad.utf8).withUnsafeBytes { FlatJSON.object($0) } == nil, "\(bad)")
        }
    }
}
