import FoundationEssentials

/// Sends a target's queue: several requests at once, each record's outcome written to the store so it
/// is never sent twice, transient failures retried with backoff, and the run ended early when the
/// target refuses the credentials or stays unreachable.
public struct Uploader<Destination: SyncDestination>: SyncUpload {
    public var store: Store
    public var destination: Destination
    public var transport: any SyncTransport<Destination.Request, Destination.Response>
    public var policy: SyncPolicy
    /// What the retries' backoff waits on.
    public var clock: any TimeSource

    public init(
        store: Store, destination: Destination, transport: any SyncTransport<Destination.Request, Destination.Response>,
        policy: SyncPolicy = SyncPolicy(), clock: any TimeSource = SystemClock()
    ) {
        self.store = store
        self.destination = destination
        self.transport = transport
        self.policy = policy
        self.clock = clock
    }

    /// Runs until the queue is empty, the run is stopped by the target, or `stopRequested` says so.
    /// A stop request sends nothing new but waits for the answers in flight and writes them down;
    /// cancelling the task instead abandons them (they are sent again next time). Outcomes already
    /// known are in the store whichever way it ends.
    public func run(
        stopRequested: @escaping @Sendable () -> Bool = { false },
        progress: @escaping @Sendable (SyncProgress) -> Void = { _ in }
    ) async throws -> SyncSummary {
        let target = destination.target
        let (refusals, refusedHere) = try self.refusals()
        let skipping = Set(refusedHere.map(\.kind))
        let total = try store.sync.syncQueueCount(target, includingHeld: destination.includesHeld, scope: policy.scope, skipping: skipping)
        let ledger = SyncLedger(store: store, target: target, total: total, policy: policy, progress: progress)
        let feed = SyncWorkFeed(store: store, destination: destination, policy: policy, skipping: skipping)
        var stopReason: String?
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<max(1, policy.concurrency) {
                    group.addTask { try await worker(feed: feed, ledger: ledger, stopRequested: stopRequested) }
                }
                try await group.waitForAll()
            }
            if stopRequested() { stopReason = "interrupted" }
        } catch let stop as SyncStop {
            stopReason = stop.reason
        } catch is CancellationError {
            stopReason = "interrupted"
        } catch {
            try? await ledger.commit()
            throw error
        }
        try await ledger.commit()
        let counts = await ledger.progress
        var notes = await ledger.rejectionNotes
        var finished: [String] = []
        if counts.sent > 0, stopReason == nil, let followUp = destination.followUp() {
            do {
                let began = clock.now()
                _ = try await transport.send(followUp.request)
                let seconds = (clock.now().seconds(since: began) * 10).rounded() / 10
                finished.append("\(followUp.done) in \(seconds.plainText) s")
            } catch {
                notes.append("\(followUp.ifFailed): \(error)")
            }
        }
        /// Records of one kind still waiting for this target.
        func waiting(_ kind: SyncRecordKind) throws -> Int {
            try store.sync.syncQueueCount(target, scope: policy.scope, skipping: Set(SyncRecordKind.allCases).subtracting([kind]))
        }
        // Said in the run that finds out, which fails for it; after that a line, not a failure.
        var refusedNow: [String] = []
        for (kind, reason) in await feed.refused {
            try store.sync.recordUnaccepted(target, UnacceptedKind(kind: kind, server: destination.server, reason: reason, at: .now()))
            refusedNow.append("\(kind.counted(try waiting(kind))) stay queued: \(reason)")
        }
        for refusal in refusedHere {
            let left = try waiting(refusal.kind)
            if left > 0 {
                notes.append("\(refusal.kind.counted(left)) not sent: \(refusal.server) does not take them (\(refusal.reason), \(RFC3339.string(refusal.at, fractionDigits: 0))); --url another server tries them")
            }
        }
        // A kind another server refused, taken by this one: it waits again.
        let sentKinds = await ledger.sentKinds
        for refusal in refusals where refusal.server != destination.server && sentKinds.contains(refusal.kind) {
            try store.sync.forgetUnaccepted(target, kind: refusal.kind)
        }
        if counts.failed > 0, let reason = await ledger.lastFailure {
            notes.append("\(counts.failed) could not be delivered and stay queued; last error: \(reason)")
        }
        if await ledger.retried > 0, let reason = await ledger.retriedReason {
            notes.append("\(await ledger.retried) request(s) went through on a later try; last error: \(reason)")
        }
        if await ledger.leftByStop > 0, let reason = await ledger.leftByStopReason {
            notes.append("\(await ledger.leftByStop) failed a try just before the stop and stay queued; last error: \(reason)")
        }
        return SyncSummary(
            target: target, sent: counts.sent, rejected: counts.rejected, held: counts.held, failed: counts.failed,
            queued: try store.sync.syncQueueCount(target, includingHeld: destination.includesHeld, scope: policy.scope, skipping: skipping.union(await feed.refused.keys)),
            seconds: counts.elapsed, finished: finished, notes: notes, stopReason: stopReason, refused: refusedNow)
    }

    public func preview() async throws -> SyncPreview {
        var preview = SyncPreview(target: destination.target)
        let feed = SyncWorkFeed(store: store, destination: destination, policy: policy, skipping: Set(try refusals().here.map(\.kind)))
        while let work = try await feed.next() {
            switch work {
            case .upload(let batch):
                preview.wouldSend[batch.kind, default: 0] += batch.recordIDs.count
            case .hold(_, _, let reason):
                preview.wouldHold += 1
                if preview.holdReasons.count < 3 && !preview.holdReasons.contains(reason) { preview.holdReasons.append(reason) }
            }
        }
        return preview
    }

    /// The kinds the target's servers said they do not take, and those this destination's server
    /// said: those are not sent to it again (another server is tried), nor previewed as sent.
    private func refusals() throws -> (all: [UnacceptedKind], here: [UnacceptedKind]) {
        let all = try store.sync.unacceptedKinds(destination.target)
        return (all, all.filter { $0.server == destination.server })
    }

    private func worker(feed: SyncWorkFeed<Destination>, ledger: SyncLedger, stopRequested: @Sendable () -> Bool) async throws {
        while true {
            // What is known is written down before anything new goes out: a crash repeats at most
            // the requests in flight.
            try await ledger.commit()
            guard !stopRequested(), let work = try await feed.next() else { return }
            try Task.checkCancellation()
            switch work {
            case .hold(let kind, let id, let reason):
                try await ledger.add([SyncOutcome(kind: kind, recordID: id, state: .held, tries: 0, message: reason)])
            case .upload(let batch):
                try await deliver(batch, feed: feed, ledger: ledger, stopRequested: stopRequested)
            }
        }
    }

    /// Sends one request until the target answers for good or its tries run out.
    private func deliver(_ batch: SyncBatch<Destination.Request>, feed: SyncWorkFeed<Destination>, ledger: SyncLedger, stopRequested: @Sendable () -> Bool) async throws {
        var backoff = policy.backoff
        var tries = 0
        var lastFailure: String?
        while true {
            tries += 1
            let verdict: SyncVerdict
            do {
                verdict = destination.verdict(for: try await transport.send(batch.request), kind: batch.kind)
            } catch SyncTransportError.untrusted(let reason) {
                verdict = .stop(reason)
            } catch let error as SyncTransportError {
                verdict = .retry(error.description)
            }
            switch verdict {
            case .accepted, .rejected:
                var state = SyncOutcome.State.sent
                var message: String?
                if case .rejected(let reason) = verdict { (state, message) = (.rejected, reason) }
                try await ledger.add(batch.recordIDs.map {
                    SyncOutcome(kind: batch.kind, recordID: $0, state: state, tries: tries, message: message)
                })
                if let lastFailure { await ledger.noteRetried(reason: lastFailure) }
                return
            case .kindNotAccepted(let reason):
                await feed.refuse(batch.kind, reason: reason)
                return
            case .stop(let reason):
                throw SyncStop(reason: reason)
            case .retry(let reason):
                lastFailure = reason
                let inARow = await ledger.noteFailure()
                if inARow >= policy.failuresInARowToGiveUp {
                    throw SyncStop(reason: "\(destination.target.displayName) failed \(inARow) times in a row, last: \(reason)")
                }
                if tries >= policy.triesPerRecord {
                    await ledger.giveUp(batch.recordIDs.count, reason: reason)
                    return
                }
                // A stop request ends the wait: the record stays queued, as it would after its tries.
                // Looked at every 50 ms: the stop request is a flag, not an event to wait on.
                let resume = clock.now().adding(seconds: backoff.nextDelay())
                while clock.now() < resume {
                    if stopRequested() {
                        await ledger.leaveForTheStop(batch.recordIDs.count, reason: reason)
                        return
                    }
                    try await clock.sleep(seconds: min(0.05, resume.seconds(since: clock.now())))
                }
            }
        }
    }
}

/// Ends a run early with a reason for the user.
struct SyncStop: Error {
    var reason: String
}
