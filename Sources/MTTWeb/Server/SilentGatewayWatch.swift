import MTTCore
import Synchronization

/// Which gateways are silent (`SilentGateways`), read again at most every 30 s: the map asks with
/// every move of the view, and the answer changes by the day.
final class SilentGatewayWatch: Sendable {
    private struct Kept: Sendable {
        var days: Double
        var silent: SilentGateways
        var at: ContinuousClock.Instant
    }

    private let kept = Mutex<Kept?>(nil)
    /// Held while the list is read: viewers asking at once wait for one read, not make one each
    /// (twenty viewers of a country's map all missed the kept list at once).
    private let reading = Mutex(())
    private static let rereadAfter: Duration = .seconds(30)

    func silent(_ coverage: any CoverageReader, days: Double) throws -> SilentGateways {
        if let fresh = fresh(days) { return fresh }
        return try reading.withLock { _ in
            if let fresh = fresh(days) { return fresh }
            let silent = try coverage.silentGateways(days: days)
            kept.withLock { $0 = Kept(days: days, silent: silent, at: .now) }
            return silent
        }
    }

    private func fresh(_ days: Double) -> SilentGateways? {
        guard let kept = kept.withLock({ $0 }), kept.days == days, ContinuousClock.now - kept.at < Self.rereadAfter else { return nil }
        return kept.silent
    }
}
