import MTTCore
import Synchronization

/// The models behind the map's predicted layer, and the gateways whose reported position their
/// receptions contradict: made on the first request that asks, and again when the store has
/// records they have not seen, at most once a minute (they read every reception; a live run adds
/// some each second).
final class PredictionCache: Sendable {
    private struct Fitted: Sendable {
        var model: CoverageModel
        var suspect: [String: String]
        var records: (sample: Int64, attempt: Int64)
        var filter: CoverageFilter
        var at: ContinuousClock.Instant
    }

    private let fitted = Mutex<Fitted?>(nil)
    private static let refitAfter: Duration = .seconds(60)

    func model(_ store: Store, _ filter: CoverageFilter) throws -> CoverageModel {
        try made(store, filter).model
    }

    /// What each gateway with a contradicted position is told (`GatewayPositionCheck`).
    func suspectPositions(_ store: Store) throws -> [String: String] {
        try made(store, CoverageFilter()).suspect
    }

    private func made(_ store: Store, _ filter: CoverageFilter) throws -> Fitted {
        let records = try store.records.newestRecordIDs()
        if let kept = fitted.withLock({ $0 }), kept.filter == filter,
           kept.records == records || ContinuousClock.now - kept.at < Self.refitAfter {
            return kept
        }
        let data = try store.coverage.predictionData(filter)
        let made = Fitted(
            model: CoverageModel(data), suspect: GatewayPositionCheck.contradicted(data.compactMap(GatewayPositionCheck.check)),
            records: records, filter: filter, at: .now)
        fitted.withLock { $0 = made }
        return made
    }
}
