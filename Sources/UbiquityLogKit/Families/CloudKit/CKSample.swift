// Sample records of the CloudKit family in the envelopes real logs use: the Xcode console
// (stderr copy, os_log copy, with and without a timestamp), `log stream`/`log show` (default,
// compact, syslog), sysdiagnose extracts with `<private>` values. The values vary from sample
// to sample (processes, addresses, UUIDs, line numbers) as they do between OS releases.

enum CKSample {
    static let delegate = "<NSCloudKitMirroringDelegate: 0x600003d1c000>"
    static let otherDelegate = "<NSCloudKitMirroringDelegate: 0x282b04e70>"
    static let store = "4C8A7D1E-2F6B-4E0A-9D3C-71B5A2E8F046"
    static let otherStore = "9E1F3A5C-7B2D-4C6E-8F0A-1D3B5C7E9F21"
    static let request = "6D3E9A41-0B7C-4F28-A5E6-C2D1F0B98A37"
    static let otherRequest = "B7F02C4D-91E3-4A6B-8C5D-3E7F1A2B4C6D"
    static let storeURL = "file:///var/mobile/Containers/Data/Application/1A2B3C4D-5E6F-4A8B-9C0D-1E2F3A4B5C6D/Library/Application%20Support/Recipes.sqlite"
    static let macStoreURL = "file:///Users/ana/Library/Containers/com.example.Recipes/Data/Library/Application%20Support/default.store"
    static let container = "iCloud.com.example.recipes"

    /// Xcode console, stderr copy: `CoreData: <level>: CoreData+CloudKit: -[…](line): …`.
    static func stderr(_ level: String, _ method: String, _ line: Int, _ message: String) -> String {
        "CoreData: \(level): CoreData+CloudKit: \(method)(\(line)): \(message)"
    }

    /// Xcode console, os_log copy of an error record: `error: CoreData+CloudKit: …`.
    static func oslogError(_ method: String, _ line: Int, _ message: String) -> String {
        "error: CoreData+CloudKit: \(method)(\(line)): \(message)"
    }

    /// Xcode console with timestamps (the NSLog-style header before the stderr copy).
    static func xcodeTimed(_ level: String, _ method: String, _ line: Int, _ message: String) -> String {
        "2025-03-14 09:26:53.532641+0100 Recipes[2210:8e41f] CoreData: \(level): CoreData+CloudKit: \(method)(\(line)): \(message)"
    }

    /// `log show` / `log stream`, default style.
    static func logShow(_ method: String, _ line: Int, _ message: String, type: String = "Default") -> String {
        "2025-03-14 09:26:53.532641+0100 0x3c1f2    \(type)     0x0                  2210   0    Recipes: (CoreData) [com.apple.coredata:CloudKit] CoreData+CloudKit: \(method)(\(line)): \(message)"
    }

    /// `log stream --style compact`.
    static func compact(_ method: String, _ line: Int, _ message: String) -> String {
        "2025-03-14 09:26:53.532 Df Recipes[2210:8e41f] [com.apple.coredata:CloudKit] CoreData+CloudKit: \(method)(\(line)): \(message)"
    }

    /// `log show --style syslog`.
    static func syslog(_ method: String, _ line: Int, _ message: String) -> String {
        "2025-03-14 09:26:53.532641+0100  localhost Recipes[2210]: (CoreData) [com.apple.coredata:CloudKit] CoreData+CloudKit: \(method)(\(line)): \(message)"
    }

    /// A sysdiagnose extract: object descriptions read `<private>`.
    static func sysdiagnose(_ method: String, _ line: Int, _ message: String) -> String {
        "2024-11-02 21:07:44.118205-0700 0x9a41      Info        0x0                  611    0    Notes Plus: (CoreData) [com.apple.coredata:CloudKit] CoreData+CloudKit: \(method)(\(line)): \(message)"
    }

    /// A line of the app process from the CloudKit framework, as `log show` prints it.
    static func framework(_ message: String, process: String = "Recipes", subsystem: String = "[com.apple.cloudkit:Notifications]") -> String {
        "2025-03-14 09:27:10.004512+0100 0x3c201    Default     0x0                  2210   0    \(process): (CloudKit) \(subsystem) \(message)"
    }

    /// A dasd or apsd line (another process), `log show` default style.
    static func daemon(_ process: String, _ subsystem: String, _ message: String) -> String {
        "2025-03-14 09:27:09.871306+0100 0x1e7        Default     0x0                  141    0    \(process): \(subsystem) \(message)"
    }

    /// A line the app printed (Xcode console with timestamps).
    static func app(_ message: String) -> String {
        "2025-03-14 09:26:55.104882+0100 Recipes[2210:8e41f] \(message)"
    }

    static func partialFailure(_ entries: String, omitted: Int? = nil) -> String {
        let tail = omitted.map { "\n\t... \($0) \"Batch Request Failed\" CKError's omited ..." } ?? ""
        return "<CKError 0x600000c4e1f0: \"Partial Failure\" (2/1011); \"Failed to modify some records\"; uuid = 0E4B7C21-5D8A-4F3E-B9C6-2A1D7E5F8B30; container ID = \"\(container)\"; partial errors: {\n\(entries)\(tail)\n}>"
    }

    static func schemaEntry(_ record: String, field: String = "CD_rating", type: String = "CD_Recipe") -> String {
        "\t\(record):(com.apple.coredata.cloudkit.zone:__defaultOwner__) = <CKError 0x600000c8a5b0: \"Invalid Arguments\" (12/2006); server message = \"Cannot create or modify field '\(field)' in record '\(type)' in production schema\"; op = 8C1D2E3F4A5B6C7D; uuid = 5B6C7D8E-9F0A-4B1C-8D2E-3F4A5B6C7D8E; container ID = \"\(container)\">"
    }
}
