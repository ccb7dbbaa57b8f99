import MTTCore
import Testing

@Suite("LoRaWAN join back-off")
struct JoinBudgetTests {
    /// Semtech's LoRa calculator: a 23-byte join-request takes 61.7 ms at SF7 and 1,482.8 ms at SF12
    /// (125 kHz, CR 4/5, 8 preamble symbols, explicit header, CRC).
    @Test func joinRequestAirtime() {
        #expect(abs(JoinBudget.joinRequestAirtime(spreadingFactor: 7) - 0.061696) < 1e-6)
        #expect(abs(JoinBudget.joinRequestAirtime(spreadingFactor: 12) - 1.482752) < 1e-6)
    }

    /// Join-requests tried as fast as allowed for 48 hours, denied every time: the aggregated airtime
    /// keeps to 36 s in the first hour, 36 s per 10 h up to hour 11, and 8.7 s per 24 h after.
    @Test(arguments: [7, 12])
    func deniedJoinsKeepToTheBudget(spreadingFactor: Int) {
        let airtime = JoinBudget.joinRequestAirtime(spreadingFactor: spreadingFactor)
        var budget = JoinBudget()
        var now = 0.0
        var sent: [Double] = []
        while now < 48 * 3_600 {
            now += budget.wait(at: now, airtime: airtime)
            guard now < 48 * 3_600 else { break }
            budget.record(at: now, airtime: airtime)
            sent.append(now)
            now += 1  // the modem's own answer time before mtt asks again
        }
        let each = airtime
        func used(from start: Double, to end: Double) -> Double {
            Double(sent.filter { $0 >= start && $0 < end }.count) * each
        }
        #expect(used(from: 0, to: 3_600) <= 36 && used(from: 0, to: 3_600) > 36 - each)
        #expect(used(from: 3_600, to: 39_600) <= 36)
        #expect(used(from: 39_600, to: 126_000) <= 8.7)
        // It does go on trying after the first hour.
        #expect(used(from: 3_600, to: 39_600) > 0 && used(from: 39_600, to: 126_000) > 0)
    }

    @Test func theFirstJoinNeverWaits() {
        #expect(JoinBudget().wait(at: 1_000, airtime: 1.5) == 0)
    }
}
