import MTTCore
import Synchronization

/// The models behind the map's predicted layer, and the gateways whose reported position their
/// receptions contradict: made on the first request that asks, and again when the store has
/// records they have not seen (`version`: a community's database says nothing of that, so it is
/// read again), at most once a minute (they read every reception; a live run adds some each
/// second). Kept per filter, so that a view with a gateway chosen and the gateways' list
/// (all of them) do not refit each other's in turn; the position checks only for the list.
final class PredictionCache: Sendable {
    private struct Fitted: Sendable {
        var model: CoverageModel
        /// Nil until the gateways' list asks: the checks search a grid around every antenna.
        var suspect: [String: String]?
        var version: [Int64]?
        var at: ContinuousClock.Instant
    }

    private let fitted = Mutex<[CoverageFilter: Fitted]>([:])
    private static let refitAfter: Duration = .seconds(60)
    /// Filters kept at once: a map's few views, not every one ever asked.
    private static let filtersKept = 8

    func model(_ coverage: any CoverageReader, _ filter: CoverageFilter, version: [Int64]?) throws -> CoverageModel {
        try made(coverage, filter, version: version, checkingPositions: false).model
    }

    /// What each gateway with a contradicted position is told (`GatewayPositionCheck`).
    func suspectPositions(_ coverage: any CoverageReader, version: [Int64]?) throws -> [String: String] {
        try made(coverage, CoverageFilter(), version: version, checkingPositions: true).suspect ?? [:]
    }

    private func made(_ coverage: any CoverageReader, _ filter: CoverageFilter, version: [Int64]?, checkingPositions: Bool) throws -> Fitted {
        if let kept = fitted.withLock({ $0[filter] }), !checkingPositions || kept.suspect != nil,
           (version != nil && kept.version == version) || ContinuousClock.now - kept.at < Self.refitAfter {
            return kept
        }
        let data = try coverage.predictionData(filter)
        let made = Fitted(
            model: CoverageModel(data), suspect: checkingPositions ? GatewayPositionCheck.contradicted(data) : nil, version: version, at: .now)
        fitted.withLock { kept in
            if kept.count >= Self.filtersKept { kept.removeAll() }
            kept[filter] = made
        }
        return made
    }
}
