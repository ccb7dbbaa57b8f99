import FoundationEssentials

/// Counts an upload run's outcomes and writes them to the store. A worker writes what is pending
/// before it sends its next request, so a crash can lose only the answers of requests in flight;
/// answers that arrive together still share one commit.
actor SyncLedger {
    private let store: Store
    private let target: SyncTarget
    private let policy: SyncPolicy
    private let report: @Sendable (SyncProgress) -> Void
    private let started = Date()
    private var pending: [SyncOutcome] = []
    private var failuresInARow = 0
    private var rejections: [String: Int] = [:]
    private var counts: SyncProgress

    init(store: Store, target: SyncTarget, total: Int, policy: SyncPolicy, progress: @escaping @Sendable (SyncProgress) -> Void) {
        self.store = store
        self.target = target
        self.policy = policy
        self.report = progress
        counts = SyncProgress(target: target, total: total)
    }

    var progress: SyncProgress {
        var p = counts
        p.elapsed = Date().timeIntervalSince(started)
        return p
    }

    /// The distinct reasons the target gave for rejections, most frequent first.
    var rejectionNotes: [String] {
        rejections.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(5).map { reason, count in
            "rejected \(count)×: \(reason)"
        }
    }

    /// Kinds of which this run sent at least one record.
    private(set) var sentKinds: Set<SyncRecordKind> = []

    func add(_ outcomes: [SyncOutcome]) throws {
        for outcome in outcomes {
            switch outcome.state {
            case .sent:
                counts.sent += 1
                sentKinds.insert(outcome.kind)
            case .rejected:
                counts.rejected += 1
                rejections[outcome.message ?? "no reason given", default: 0] += 1
            case .held: counts.held += 1
            }
        }
        if outcomes.contains(where: { $0.state != .held }) { failuresInARow = 0 }
        pending += outcomes
        report(progress)
    }

    /// Counts a failed request; returns the failures in a row so far.
    func noteFailure() -> Int {
        failuresInARow += 1
        return failuresInARow
    }

    func giveUp(_ records: Int, reason: String) {
        counts.failed += records
        lastFailure = reason
        report(progress)
    }

    /// The last reason a record could not be delivered, for the summary.
    private(set) var lastFailure: String?

    /// Records whose last try failed when the stop came (they stay queued), and why.
    private(set) var leftByStop = 0
    private(set) var leftByStopReason: String?

    /// Requests that went through after a failed try, and the last failure: a flaky link (or
    /// answer lost on the way) the summary should not hide behind "0 failed".
    private(set) var retried = 0
    private(set) var retriedReason: String?

    func noteRetried(reason: String) {
        retried += 1
        retriedReason = reason
    }

    func leaveForTheStop(_ records: Int, reason: String) {
        leftByStop += records
        leftByStopReason = reason
    }

    func commit() throws {
        guard !pending.isEmpty else { return }
        try store.sync.recordSync(pending, target: target)
        pending.removeAll(keepingCapacity: true)
    }
}
