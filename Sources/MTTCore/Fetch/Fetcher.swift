import Logging
import Synchronization

/// Completes sessions from the uplinks the network stored while mtt was offline: reads each
/// target's window (device by device, or the whole application), stores each uplink once, joins
/// attempts to what was heard and places matching and listener uplinks on their track — with the
/// same store code the live run uses, so a fetched session reads as if MQTT had been live.
/// A failed read changes nothing already stored; what it read before failing stays.
public final class Fetcher: Sendable {
    /// Uplinks stored per transaction.
    static let batchSize = 500

    private let store: Store
    /// How sessions recorded with `--gps payload` read their devices' positions.
    private let positioning: PayloadPositioning
    private let gapRules: FrameCounterGaps.Rules
    private let stopped = Atomic<Bool>(false)
    /// The read under way, cancelled by `stop` so that a wait or a silent server ends at once.
    private let reading = Mutex<Task<Void, any Error>?>(nil)
    private let logger = Logger(label: "mtt.fetch")

    public init(store: Store, positioning: PayloadPositioning = PayloadPositioning(), gaps: FrameCounterGaps.Rules = .init()) {
        self.store = store
        self.positioning = positioning
        gapRules = gaps
    }

    /// A session recorded with payload positions places what is fetched for it the same way.
    private func payloadPlacement(_ session: StoredSession) -> PayloadPlacement? {
        guard let gps = session.gps, gps == "payload" || gps.hasPrefix("payload+") else { return nil }
        return PayloadPlacement(positioning: positioning, gaps: gapRules, besideTrack: gps != "payload")
    }

    /// Stops reading: what was read so far is stored, the summary says it was interrupted.
    public func stop() {
        stopped.store(true, ordering: .relaxed)
        reading.withLock { $0?.cancel() }
    }

    /// Reads each target from its source; `progress` sees the running summary after each stored
    /// batch (and each wait the server asks for).
    public func run(
        _ targets: [(target: FetchTarget, source: any StoredUplinkSource)], now: Timestamp = .now(),
        progress: @escaping @Sendable (FetchSummary) -> Void = { _ in }
    ) async -> FetchSummary {
        let summary = Mutex(FetchSummary())
        summary.withLock { s in s.warnings = targets.compactMap(\.target.warning) }
        targets: for (target, source) in targets {
            let session = target.session
            summary.withLock { $0.sessions += 1 }
            var complete = true
            let payload = payloadPlacement(session)
            let counters = Mutex(FrameCounterGaps(rules: gapRules))
            for device in target.devices.map({ $0.map(Optional.some) }) ?? [nil] {
                if stopped.load(ordering: .relaxed) { break targets }
                let pending = Mutex<[Uplink]>([])
                let failure = Mutex<(any Error)?>(nil)
                let store = self.store
                // Runs on the reader's thread; storing there keeps the read and the writes in step.
                let flush: @Sendable () -> Bool = {
                    let uplinks = pending.withLock { p in defer { p.removeAll() }; return p }
                    guard !uplinks.isEmpty else { return true }
                    do {
                        let outcome = try counters.withLock { gaps in
                            try store.records.recordFetched(uplinks, session: session.id, mode: session.mode, payload: payload, gaps: &gaps)
                        }
                        let now = summary.withLock { s in
                            s.new += outcome.new
                            s.alreadyStored += outcome.alreadyStored
                            s.heard += outcome.heard
                            s.placed += outcome.placed
                            s.unplaceable.merge(outcome.unplaceable, uniquingKeysWith: +)
                            return s
                        }
                        progress(now)
                        return true
                    } catch {
                        failure.withLock { $0 = error }
                        return false
                    }
                }
                let query = StoredUplinkQuery(device: device, after: target.after, before: target.before)
                let brokenBefore = summary.withLock { $0.broken }
                do {
                    let read = Task { @Sendable [self] in try await source.read(query) { [self] item in
                        if stopped.load(ordering: .relaxed) { return false }
                        switch item {
                        case .uplink(let uplink):
                            let keep = target.devEUIs.map { euis in uplink.devEUI.map(euis.contains) ?? false } ?? true
                            summary.withLock {
                                $0.read += 1
                                if !keep { $0.otherDevices += 1 }
                            }
                            guard keep else { return true }
                            let full = pending.withLock { p in
                                p.append(uplink)
                                return p.count >= Self.batchSize
                            }
                            return full ? flush() : true
                        case .broken:
                            summary.withLock { $0.broken += 1 }
                        case .skipped:
                            summary.withLock { $0.skipped += 1 }
                        case .waiting(let seconds, let asked):
                            progress(summary.withLock { s in
                                let capped = "the server asked to wait \(asked.plainText) s; mtt waits \(seconds.plainText) s at most, then asks again"
                                if asked > seconds, !s.warnings.contains(capped) { s.warnings.append(capped) }
                                return s
                            })
                        }
                        return true
                    } }
                    reading.withLock { $0 = read }
                    defer { reading.withLock { $0 = nil } }
                    // A stop that came before the read was known cancels it here.
                    if stopped.load(ordering: .relaxed) { read.cancel() }
                    try await read.value
                    _ = flush()
                    let count = summary.withLock { $0.broken } - brokenBefore
                    if count > 0, !stopped.load(ordering: .relaxed) {
                        // A session is fetched only by an answer read whole.
                        complete = false
                        summary.withLock {
                            $0.errors.append("session \(session.id), \(device ?? "all devices"): \(count) broken line(s) in the answer; what could be read is stored, fetch again for the rest")
                        }
                    }
                } catch {
                    // What was read before the failure is stored all the same.
                    _ = flush()
                    complete = false
                    if stopped.load(ordering: .relaxed) { break targets }
                    let name = device ?? "all devices"
                    summary.withLock { $0.errors.append("session \(session.id), \(name): \(error)") }
                    if (error as? FetchError)?.endsTheFetch ?? false { break targets }
                }
                if let failure = failure.withLock({ $0 }) {
                    summary.withLock { $0.errors.append("session \(session.id): the database refused the uplinks: \(failure)") }
                    break targets
                }
            }
            if stopped.load(ordering: .relaxed) { break targets }
            do {
                try finish(session, complete: complete, into: summary)
                if complete { try store.sessions.markFetched(session: session.id, at: now) }
            } catch {
                summary.withLock { $0.errors.append("session \(session.id): \(error)") }
            }
        }
        return summary.withLock { s in
            s.interrupted = stopped.load(ordering: .relaxed)
            return s
        }
    }

    /// After a session's reads: its uplinks placed on the track, or its unheard attempts counted;
    /// only after a complete read, since an attempt the failed read did not reach is not known lost.
    private func finish(_ session: StoredSession, complete: Bool, into summary: borrowing Mutex<FetchSummary>) throws {
        if session.mode == .active {
            guard complete else { return }
            let lost = try store.records.unheardAttempts(session: session.id)
            summary.withLock { $0.lost += lost }
            return
        }
        let placement = try store.records.placeUnplacedUplinks(sessions: [session.id])
        summary.withLock { s in
            s.placed += placement.placed
            s.unplaceable.merge(placement.unplaceable, uniquingKeysWith: +)
        }
    }
}
