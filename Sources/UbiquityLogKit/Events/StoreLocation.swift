/// Which of the two stores an event is about.
public enum StoreLocation: String, Sendable, CaseIterable {
    case local, cloud, unknown
}
