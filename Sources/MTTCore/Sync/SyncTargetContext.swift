import FoundationEssentials

/// What a target's `prepare` may use to make its upload for one run.
public struct SyncTargetContext: Sendable {
    public var store: Store
    /// The layered configuration: the target's own keys (`sync.NAME.KEY`) are read here.
    public var settings: Config
    /// `--url` or `sync.url`, when it names this target's server.
    public var url: URL?
    /// TTN Mapper's experiment.
    public var experiment: String?
    public var policy: SyncPolicy
    public var transports: SyncTransports
    public var secrets: SecretReader
}

/// Reads secrets the way the command line allows them: from the environment, or from a file only
/// its owner can read. Given to targets so a target needs no command-line code for its credentials.
public struct SecretReader: Sendable {
    /// A variable's value; nil when it is unset or empty.
    public var environment: @Sendable (String) -> String?
    /// A secret file's text; throws when it cannot be read or others can read it.
    public var file: @Sendable (_ path: String, _ what: String) throws -> String

    public init(environment: @escaping @Sendable (String) -> String?, file: @escaping @Sendable (String, String) throws -> String) {
        self.environment = environment
        self.file = file
    }
}

/// One run's upload to one target (an `Uploader` with its destination and transport).
public protocol SyncUpload: Sendable {
    /// Runs until the queue is empty, the target stops the run, or `stopRequested` says so.
    func run(stopRequested: @escaping @Sendable () -> Bool, progress: @escaping @Sendable (SyncProgress) -> Void) async throws -> SyncSummary
    /// What `run` would send and hold, read through the same queue and rules, sending nothing.
    func preview() async throws -> SyncPreview
}

/// Why a target cannot be uploaded to in this run, said to the user as it is.
public struct SyncTargetProblem: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
