import MTTCore
import Synchronization

/// The models behind the map's predicted layer: fitted on the first view that asks, and again
/// when the store has records the fit has not seen, at most once a minute (a fit reads every
/// reception; a live run adds some each second).
final class PredictionCache: Sendable {
    private struct Fitted: Sendable {
        var model: CoverageModel
        var records: (sample: Int64, attempt: Int64)
        var filter: CoverageFilter
        var at: ContinuousClock.Instant
    }

    private let fitted = Mutex<Fitted?>(nil)
    private static let refitAfter: Duration = .seconds(60)

    func model(_ store: Store, _ filter: CoverageFilter) throws -> CoverageModel {
        let records = try store.records.newestRecordIDs()
        if let kept = fitted.withLock({ $0 }), kept.filter == filter,
           kept.records == records || ContinuousClock.now - kept.at < Self.refitAfter {
            return kept.model
        }
        let model = CoverageModel(try store.coverage.predictionData(filter))
        fitted.withLock { $0 = Fitted(model: model, records: records, filter: filter, at: .now) }
        return model
    }
}
