// Which records a rule is tried on: a family's channel reads the records of one marker, the
// records with none (the app's lines, after the channels before it in the catalogue), or both.
// How its patterns are tried on a message is one of the engine's search shapes.
import PCRE2
import Synchronization

/// How a channel's patterns are tried on a message.
public enum ChannelShape: Sendable {
    /// At the start of every line, after its blanks (older OS versions print the logging
    /// object's description on the lines before the text).
    case lines
    /// At the start of every line, after its blanks, past a logged object's description first
    /// (`<SomeDelegate: 0x…>: `, `<private> - `).
    case linesPastDescription
    /// At the message start, past one `[subsystem:category]` tag first.
    case startPastSubsystemTag
    /// At the message start, after at most one tag an app's logger may add (`[USM] `,
    /// `StoreManager: `); patterns read the message as one line.
    case startPastLoggerTag

    /// How the channel's patterns are compiled.
    var options: CompileOptions { self == .startPastLoggerTag ? [] : .multiline }
}

/// A family's channel. Made once (a family's `static let`) and compared for every rule: a
/// class, with a dense `index` for tables by channel.
public final class Channel: Sendable, Hashable, CustomStringConvertible {
    /// A name for messages and tests.
    public let id: String
    public let family: FamilyID
    public let shape: ChannelShape
    /// The marker whose records it reads.
    public let marker: Marker?
    /// Whether it also reads records without a marker (the app's lines), after the channels
    /// before it in the catalogue that do.
    public let readsUnmarked: Bool
    /// What a record of its marker becomes when no rule recognises it (`limitHit`: a rule gave
    /// up at the match limit).
    let unmatched: @Sendable (_ record: Record, _ limitHit: Bool) -> Event
    /// Small and dense: an index for tables by channel.
    public let index: Int

    public init(_ id: String, family: FamilyID, shape: ChannelShape, marker: Marker?, readsUnmarked: Bool = false,
                unmatched: @escaping @Sendable (_ record: Record, _ limitHit: Bool) -> Event = { _, limitHit in .unhandled(limitHit: limitHit) }) {
        self.id = id
        self.family = family
        self.shape = shape
        self.marker = marker
        self.readsUnmarked = readsUnmarked
        self.unmatched = unmatched
        index = Channel.count.withLock { count in
            count += 1
            return count - 1
        }
    }

    private static let count = Mutex(0)

    public var description: String { id }
    public static func == (lhs: Channel, rhs: Channel) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(index) }
}
