// The reporters' seam: streaming reporters write as records arrive, end-of-run reporters
// when the summary is done. Neither decides the exit status.

/// A record with what the classifier made of it.
public struct ClassifiedRecord {
    public let record: Record
    public let classification: Classification
    public var event: Event { classification.event }
}

public protocol Reporter: AnyObject {
    /// A new input begins (inputs are read one after another).
    func beginInput(_ name: String)
    func report(_ item: ClassifiedRecord)
    /// An input could not be opened or read.
    func inputFailed(_ error: InputError)
    /// The input went quiet: write out what is buffered so a live reader sees it now.
    func flush()
    /// The run is over.
    func finish(_ summary: RunSummary)
}

extension Reporter {
    public func beginInput(_ name: String) {}
    public func inputFailed(_ error: InputError) {}
    public func flush() {}
}
