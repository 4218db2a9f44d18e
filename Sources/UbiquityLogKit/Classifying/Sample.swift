// Builds the sample records rules carry, in the header styles real logs use, so that each
// rule's samples read like the lines they stand for without repeating headers everywhere.

enum Sample {
    static let peer = "mobile~6F2C0E8A-1B7D-4C55-9A34-2B8E1D0C7F11"
    static let otherPeer = "mobile~A3D19B52-7E0C-4F8A-B1D6-5C2E9F04A7B3"
    static let root = "/var/mobile/Library/Mobile Documents/ABCDE12345~com~example~journal/CoreDataLogs"
    static let storeUUID = "6F0D0A1E-8C55-4F4C-9C3A-1D2E3F4A5B6C"
    static let logFile = "DAC8E3F1-2B4A-4C6D-8E9F-0A1B2C3D4E5F.1.cdt"

    /// iOS 7 and later, Xcode console: method and source line before the marker.
    static func ios7(_ method: String, _ line: Int, _ message: String) -> String {
        "2014-03-02 09:14:07.318 Journal[412:60b] \(method)(\(line)): CoreData: Ubiquity:  \(message)"
    }

    /// iOS 5 and 6, Xcode console: the marker right after the header.
    static func ios6(_ message: String) -> String {
        "2012-11-20 18:02:41.770 Journal[233:1303] CoreData: Ubiquity:  \(message)"
    }

    /// A device console (syslog) line, iOS 7 wording.
    static func console(_ method: String, _ line: Int, _ message: String) -> String {
        "Mar  2 09:14:07 Joes-iPad Journal[412] <Warning>: \(method)(\(line)): CoreData: Ubiquity:  \(message)"
    }

    /// UbiquityStoreManager's own NSLog line.
    static func usm(_ message: String) -> String {
        "2014-03-02 09:14:07.318 Journal[412:60b] UbiquityStoreManager: \(message)"
    }

    /// UbiquityStoreManager's message re-prefixed by an app's logger.
    static func appLogged(_ message: String) -> String {
        "2014-03-02 09:14:07.318 Journal[412:60b] [USM] \(message)"
    }

    /// A `CoreData: error:` line.
    static func coreDataError(_ message: String) -> String {
        "2014-03-02 09:14:07.318 Journal[412:60b] CoreData: error: \(message)"
    }

    /// How iOS 7 prints `<PFUbiquityLocation>`.
    static func location(_ path: String) -> String { "<PFUbiquityLocation: 0x15e53120>: \(path)" }

    static let importer = "<_PFUbiquityRecordsImporter: 0x1d5a3b40>:\n\tubiquityRootLocation: \(location(root))\n\tlocalPeerID: \(peer)"
    static let exporter = "<_PFUbiquityRecordsExporter: 0x15d6a0f0>\n\tlocalPeerID: \(peer)\n\tubiquityRootLocation: \(location(root))\n\tlastTransactionDate: 2014-03-02 08:14:05 +0000"
    static let knowledgeVector = "<PFUbiquityKnowledgeVector: 0x15e53010>:{\(peer):12, \(otherPeer):7}"
    static let error134302 = #"Error Domain=NSCocoaErrorDomain Code=134302 "The operation couldn’t be completed. (Cocoa error 134302.)" UserInfo=0x15e9a2c0 {reason=Could not read the transaction log}"#
}
