// Every line the fixtures produce with --format jsonl is valid against the published schema,
// schema/parselogs-jsonl.schema.json (the file docs/json-lines.md points consumers to), so the
// output and the contract cannot drift apart.
import Foundation
import Testing
import TestSupport
import UbiquityLogKit

/// The JSON Schema keywords the schema files use: type, const, enum, required,
/// properties, additionalProperties, items, oneOf, anyOf, minimum, $ref to #/$defs or
/// #/definitions.
struct SchemaValidator {
    let root: [String: Any]

    func validate(_ value: Any, against schema: [String: Any], at path: String = "$") -> [String] {
        if let reference = schema["$ref"] as? String {
            let container = reference.hasPrefix("#/definitions/") ? "definitions" : "$defs"
            let name = String(reference.dropFirst("#/\(container)/".count))
            guard let definitions = root[container] as? [String: Any], let target = definitions[name] as? [String: Any] else {
                return ["\(path): unknown $ref \(reference)"]
            }
            return validate(value, against: target, at: path)
        }
        var problems: [String] = []
        if let choices = schema["oneOf"] as? [[String: Any]] {
            let passing = choices.filter { validate(value, against: $0, at: path).isEmpty }.count
            if passing != 1 { problems.append("\(path): matches \(passing) of the oneOf choices") }
        }
        if let choices = schema["anyOf"] as? [[String: Any]], !choices.contains(where: { validate(value, against: $0, at: path).isEmpty }) {
            problems.append("\(path): matches none of the anyOf choices")
        }
        if let types = schema["type"].map({ $0 as? [String] ?? [$0 as? String ?? ""] }), !types.contains(typeName(value)) {
            return problems + ["\(path): is \(typeName(value)), expected \(types)"]
        }
        if let constant = schema["const"], !same(constant, value) { problems.append("\(path): is not \(constant)") }
        if let choices = schema["enum"] as? [Any], !choices.contains(where: { same($0, value) }) { problems.append("\(path): not in enum") }
        if let minimum = schema["minimum"] as? Int, let number = value as? Int, number < minimum { problems.append("\(path): below \(minimum)") }
        if let object = value as? [String: Any], typeName(value) == "object" {
            for key in schema["required"] as? [String] ?? [] where object[key] == nil { problems.append("\(path): missing \(key)") }
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for (key, member) in object {
                if let property = properties[key] as? [String: Any] {
                    problems += validate(member, against: property, at: "\(path).\(key)")
                } else if let additional = schema["additionalProperties"] {
                    if let flag = additional as? Bool, !flag { problems.append("\(path): unexpected key \(key)") }
                    if let nested = additional as? [String: Any] { problems += validate(member, against: nested, at: "\(path).\(key)") }
                }
            }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for (index, item) in array.enumerated() { problems += validate(item, against: items, at: "\(path)[\(index)]") }
        }
        return problems
    }

    private func typeName(_ value: Any) -> String {
        if value is NSNull { return "null" }
        if let number = value as? NSNumber {
            if String(cString: number.objCType) == "c" || type(of: value) == Bool.self { return "boolean" }
            return "integer"
        }
        if value is String { return "string" }
        if value is [Any] { return "array" }
        if value is [String: Any] { return "object" }
        return "unknown"
    }

    private func same(_ a: Any, _ b: Any) -> Bool {
        guard typeName(a) == typeName(b) else { return false }
        return (a as? NSObject)?.isEqual(b) ?? false
    }
}

@Suite struct JSONSchemaTests {
    static func schema() throws -> [String: Any] {
        let file = Binary.packageRoot.appendingPathComponent("schema/parselogs-jsonl.schema.json")
        return try require(JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
    }

    @Test func theValidatorRejectsWhatTheSchemaForbids() throws {
        let validator = SchemaValidator(root: try Self.schema())
        let bad: [String] = [
            #"{"type":"begin","schema":"parselogs-jsonl/3","tool":"x"}"#,
            #"{"type":"record","input":"a","line":0,"lines":1,"time":null,"kind":"app","category":"app","severity":"info","message":"","fields":{},"raw":{"text":""}}"#,
            #"{"type":"record","input":"a","line":1,"lines":1,"time":null,"kind":"app","category":"weather","severity":"info","message":"","fields":{},"raw":{"text":""}}"#,
            #"{"type":"record","input":"a","line":1,"lines":1,"time":null,"kind":"app","category":"app","severity":"info","message":"","fields":{},"raw":{"text":"","bytes":""}}"#,
            #"{"type":"summary","lines":1}"#,
            #"{"type":"other"}"#,
        ]
        for line in bad {
            let value = try JSONSerialization.jsonObject(with: Data(line.utf8))
            expect(!validator.validate(value, against: validator.root).isEmpty, "\(line)")
        }
    }

    @Test(arguments: ["example.log", "ios6-session.log", "device-console.log", "logshow.log", "logshow.ndjson", "fuzz/control-and-broken-utf8.bin",
                      "scenarios/account-logout.log", "scenarios/rebuild-iphone.log",
                      "cloudkit/healthy-xcode.log", "cloudkit/schema-not-deployed.log", "cloudkit/no-account.ndjson", "cloudkit/quota.log",
                      "cloudkit/two-containers.log", "cloudkit/throttled-then-healthy.log", "cloudkit/migrated-app.log"])
    func everyLineIsValid(fixture: String) throws {
        let validator = SchemaValidator(root: try Self.schema())
        let kinds = Set(try Catalog.standard().kinds.map(\.id))
        let result = try Binary.run(["--format", "jsonl", "fixtures/\(fixture)"])
        let lines = result.stdout.split(separator: "\n")
        expectEqual(lines.first?.contains(#""type":"begin""#), true)
        expectEqual(lines.last?.contains(#""type":"summary""#), true)
        for line in lines {
            let value = try JSONSerialization.jsonObject(with: Data(line.utf8))
            let problems = validator.validate(value, against: validator.root)
            expect(problems.isEmpty, "\(problems) in \(line)")
            if let kind = (value as? [String: Any])?["kind"] as? String { expect(kinds.contains(kind)) }
        }
    }

    @Test func rawBytesAreLossless() throws {
        let bytes: [UInt8] = Array("2014-03-02 09:14:05.001 Journal[412:60b] caf".utf8) + [0xE9, 0x00, 0x0D, 0x0A] + Array("second line".utf8)
        let result = try Binary.run(["--format", "jsonl"], stdin: Data(bytes))
        let records = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["type"] as? String == "record" }
        var rebuilt: [UInt8] = []
        for record in records {
            let raw = try require(record["raw"] as? [String: String])
            if let text = raw["text"] { rebuilt += Array(text.utf8) }
            if let base64 = raw["bytes"] { rebuilt += Array(try require(Data(base64Encoded: base64))) }
            rebuilt.append(0x0A)
        }
        // CR before LF is a line end, not content; everything else comes back byte for byte.
        expectEqual(rebuilt, Array("2014-03-02 09:14:05.001 Journal[412:60b] caf".utf8) + [0xE9, 0x00, 0x0A] + Array("second line".utf8) + [0x0A])
    }
}
