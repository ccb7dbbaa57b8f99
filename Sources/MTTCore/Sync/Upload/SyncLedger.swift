import Foundation

/// Counts an upload run's outcomes and writes them to the store in groups: often enough that a crash
/// loses few answers, seldom enough that a commit per record does not limit the rate.
actor SyncLedger {
    private let store: Store
    private let target: SyncTarget
    private let policy: SyncPolicy
    private let report: @Sendable (SyncProgress) -> Void
    private let started = Date()
    private var pending: [SyncOutcome] = []
    private var lastCommit = Date()
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

    func add(_ outcomes: [SyncOutcome]) throws {
        for outcome in outcomes {
            switch outcome.state {
            case .sent: counts.sent += 1
            case .rejected:
                counts.rejected += 1
                rejections[outcome.message ?? "no reason given", default: 0] += 1
            case .held: counts.held += 1
            }
        }
        if outcomes.contains(where: { $0.state != .held }) { failuresInARow = 0 }
        pending += outcomes
        if pending.count >= policy.outcomesPerCommit || Date().timeIntervalSince(lastCommit) >= policy.commitInterval {
            try commit()
        }
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

    /// Commits outcomes that have waited a commit interval, for runs where answers come slowly.
    func commitIfDue() throws {
        if Date().timeIntervalSince(lastCommit) >= policy.commitInterval { try commit() }
    }

    func commit() throws {
        lastCommit = Date()
        guard !pending.isEmpty else { return }
        try store.recordSync(pending, target: target)
        pending.removeAll(keepingCapacity: true)
    }
}
