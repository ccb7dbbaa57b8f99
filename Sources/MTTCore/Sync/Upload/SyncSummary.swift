/// The result of one upload run to one target.
public struct SyncSummary: Sendable, Hashable, Codable {
    public var target: SyncTarget
    public var sent: Int
    public var rejected: Int
    public var held: Int
    /// Records that could not be delivered in this run; they stay queued.
    public var failed: Int
    /// Records still waiting for this target after the run.
    public var queued: Int
    public var seconds: Double
    /// What the target did after the records arrived, each with how long it took.
    public var finished: [String]
    /// Things the user should know: kinds this server does not take, reasons for rejections.
    public var notes: [String]
    /// Why the run ended early, when it did (credentials refused, server unreachable).
    public var stopReason: String?
    /// Records held back because their session is simulated, or excluded by the user.
    public var simulated = 0
    public var excluded = 0
    /// Kinds the server answered 404/405 for in this run, a line each ("12 samples stay queued:
    /// …"): the run failed to deliver them; later runs leave them out with a note.
    public var refused: [String] = []

    public init(
        target: SyncTarget, sent: Int = 0, rejected: Int = 0, held: Int = 0, failed: Int = 0, queued: Int = 0,
        seconds: Double = 0, finished: [String] = [], notes: [String] = [], stopReason: String? = nil, simulated: Int = 0, excluded: Int = 0, refused: [String] = []
    ) {
        self.refused = refused
        self.simulated = simulated
        self.excluded = excluded
        self.target = target
        self.sent = sent
        self.rejected = rejected
        self.held = held
        self.failed = failed
        self.queued = queued
        self.seconds = seconds
        self.finished = finished
        self.notes = notes
        self.stopReason = stopReason
    }

    enum CodingKeys: String, CodingKey {
        case target, sent, rejected, held, failed, queued, seconds, finished, notes
        case stopReason = "stop_reason"
        case simulated = "held_simulated", excluded = "held_excluded"
        case refused = "not_taken"
    }

    /// The run did not deliver everything it could have.
    public var isFailure: Bool { stopReason != nil || failed > 0 || !refused.isEmpty }
}
