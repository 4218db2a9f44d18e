// Model validation: the messages with which Core Data (and SwiftData, which mirrors through it)
// refuses to load a store whose model CloudKit cannot mirror, each followed by its list of
// `Entity: property` lines. The list is read whether it follows on the record's continuation
// lines, after escaped line breaks (`\n` inside a quoted user-info value), or on the same line.
// The app's print of the error and Core Data's own `Store failed to load` record carry the same
// text: both are read as the same cause, which the story tells once.

extension EventKind {
    public static let cloudKitModelUnsupported = EventKind("cloudkit-model-unsupported", .schema, .error, .notable,
        "The store was not loaded: the model uses a feature CloudKit mirroring does not support (unique constraints, the Deny delete rule, a relationship without an inverse).",
        family: .cloudKit)
}

extension CloudKitRules {
    enum ModelRules {
        /// The messages, each as its words and the cause it tells; the wordings of iOS 13 to 26
        /// (iOS 13's "requires does not support" typo included).
        static let messages: [(words: String, anchor: StaticString, cause: CloudKitCause, rule: String)] = [
            (#"(?:requires[ ])?does[ ]not[ ]support[ ]ordered[ ]relationships"#, "ordered relationships", .modelOrderedRelationship, "ordered relationships"),
            (#"requires[ ]that[ ]all[ ]attributes[ ]be[ ]optional"#, "all attributes be optional", .modelAttributeRequired,
             "non-optional attributes without a default value"),
            (#"requires[ ]that[ ]all[ ]relationships[ ]be[ ]optional"#, "all relationships be optional", .modelRelationshipRequired,
             "non-optional relationships"),
            (#"does[ ]not[ ]support[ ]unique[ ]constraints"#, "unique constraints", .modelUnsupported, "unique constraints"),
            (#"does[ ]not[ ](?:support|allow)[^\n]{0,60}?Deny"#, "Deny", .modelUnsupported, "the Deny delete rule"),
            (#"requires[ ]that[ ]all[ ]relationships[ ]have[ ](?:an[ ])?inverse"#, "have an inverse", .modelUnsupported,
             "relationships without an inverse"),
        ]

        /// What `explain` says of the kind these rules add.
        static let guidance: [String: Guidance] = [
            "cloudkit-model-unsupported": Guidance(next: "The store does not load.",
                action: "Drop the unique constraints (deduplicate in code instead), use Nullify or Cascade instead of Deny, and give every relationship an inverse; the record's entities name where."),
        ]

        static let pattern = #"[^\n]{0,3000}?CloudKit[ ]integration[ ](?:"# + messages.map(\.words).joined(separator: "|") + ")"

        static let all: [Rule] = [
            Rule("cloudkit-model-rule", .cloudKitFramework, .cloudKitModelAttributeRequired, pattern,
                 samples: [
                    CKSample.app("Unresolved error Error Domain=NSCocoaErrorDomain Code=134060 \"A Core Data error occurred.\" UserInfo={NSLocalizedFailureReason=CloudKit integration requires that all attributes be optional, or have a default value set. The following attributes are marked non-optional but do not have a default value:\nRecipe: title\nRecipe: createdAt}"),
                    // iOS 13's wording, printed by an app's own logger.
                    "2019/10/04 11:20:31:207  [Store] failed to load: CloudKit integration requires does not support ordered relationships. The following relationships are marked ordered:\nCookbook: recipes",
                    CKSample.app("Error: CloudKit integration requires that all relationships be optional, the following are not:\nStep: recipe"),
                    "2024-06-11 14:02:55.310877-0700 Ledger[3310:10a4b] Fatal error: Failed to create ModelContainer: SwiftDataError(_error: SwiftData.SwiftDataError._Error.loadIssueModelContainer, _explanation: Optional(\"CloudKit integration does not support unique constraints. The following entities are constrained:\\nAccount: number\\nCategory: name\"))",
                    "2025-09-30 08:12:03.990412+0200  Marias-iPad Journal[77]: (SwiftData) error: Store load failed: CloudKit integration does not support the Deny deletion rule for relationships. The following relationships use Deny:\n\tFolder: notes",
                    "2025-09-30 08:12:04.001 Df Journal[77:4f1] CloudKit integration requires that all relationships have an inverse, the following do not: Entry: mood, Entry: tags",
                 ]) { match in event(match) },
            // Core Data's own record of the failed load, with the same text in its
            // NSLocalizedFailureReason: the same failure as the app's print of it.
            Rule("cloudkit-model-store-load", .coreDataError, .cloudKitModelAttributeRequired, pattern,
                 samples: [
                    "CoreData: error: Store failed to load.  <NSPersistentStoreDescription: 0x600003a0c000> (type: SQLite, url: file:///Users/ana/Library/Pantry.sqlite) with error = Error Domain=NSCocoaErrorDomain Code=134060 \"A Core Data error occurred.\" UserInfo={NSLocalizedFailureReason=CloudKit integration requires that all relationships be optional, the following are not:\nShelf: pantry} with userInfo {\n    NSLocalizedFailureReason = \"CloudKit integration requires that all relationships be optional, the following are not:\\nShelf: pantry\";\n}",
                 ]) { match in event(match) },
        ].map { $0.producing([.cloudKitModelOrderedRelationship, .cloudKitModelRelationshipRequired, .cloudKitModelUnsupported]) }

        /// The message's kind by its cause, its `Entity: property` list (`entities`), the
        /// error it stands in, and the cause in words with the list.
        static func event(_ match: RuleMatch) -> Event {
            let bytes = match.messageBytes
            let text = ByteText.string(bytes)
            var chosen = messages[0]
            var at = text.endIndex
            for message in messages {
                if let found = text.firstRange(ofASCII: message.anchor), found.lowerBound < at {
                    chosen = message
                    at = found.lowerBound
                }
            }
            let entities = modelEntities(in: text[at...])
            var fields = FieldList()
            fields.add(match.error())
            // A failure of its own stage: the store was refused before set-up could start.
            fields.add("stage", "model")
            fields.add("cause", chosen.cause.rawValue)
            fields.add("modelRule", chosen.rule)
            if !entities.isEmpty { fields.add("entities", .list(entities.map { .string($0) })) }
            fields.add("causeText", CloudKitTracker.sentence(chosen.cause, stage: "setup", Facts(fields.items)))
            return .message(chosen.cause.kind, fields.items)
        }

        /// The `Entity: property` pairs after the message's sentence (`…: `, a line break or an
        /// escaped one), in order, each once: separated by line breaks, escaped line breaks,
        /// commas or blanks; the list ends at the first text that is not such a pair. At most 50.
        static func modelEntities(in text: Substring) -> [String] {
            guard let colon = text.firstIndex(where: { $0 == ":" }) else { return [] }
            var rest = text[text.index(after: colon)...]
            var found: [String] = []
            func isName(_ character: Character) -> Bool { character.isLetter || character.isNumber || character == "_" || character == "." }
            while found.count < 50 {
                // Separators: blanks, tabs, line breaks (real or escaped), commas.
                while let first = rest.first {
                    if first == " " || first == "\t" || first == "\n" || first == "," || first == "\r" { rest = rest.dropFirst() }
                    else if rest.hasPrefix("\\n") || rest.hasPrefix("\\t") { rest = rest.dropFirst(2) }
                    else { break }
                }
                let entity = rest.prefix(while: isName)
                guard !entity.isEmpty, entity.first?.isLetter == true || entity.first == "_" else { break }
                var after = rest[entity.endIndex...]
                guard after.hasPrefix(": ") else { break }
                after = after.dropFirst(2)
                let property = after.prefix(while: isName)
                guard !property.isEmpty else { break }
                let pair = "\(entity): \(property)"
                if !found.contains(pair) { found.append(pair) }
                rest = after[property.endIndex...]
            }
            return found
        }
    }
}
