import MTTCore
import Testing

@Suite("Coverage: TTN Mapper's signal buckets and reach levels")
struct SignalBucketTests {
    @Test func theEdgesBelongWhereTTNMapperPutsThem() {
        #expect(SignalBucket(signal: -94.99) == .high)
        #expect(SignalBucket(signal: -95) == .b100)  // −100 < s ≤ −95: the upper edge is in
        #expect(SignalBucket(signal: -99.99) == .b100)
        #expect(SignalBucket(signal: -100) == .b105)
        #expect(SignalBucket(signal: -140) == .b145)
        #expect(SignalBucket(signal: -144.99) == .b145)
        #expect(SignalBucket(signal: -145) == .low)
        #expect(SignalBucket(signal: -170) == .low)
        #expect(SignalBucket.allCases.map(\.name) == ["high", "100", "105", "110", "115", "120", "125", "130", "135", "140", "145", "low"])
    }

    @Test func aWeakSNRLowersTheSignalAndAGoodOneDoesNotRaiseIt() {
        #expect(SignalBucket.signal(rssi: -96, snr: 10) == -96)
        #expect(SignalBucket.signal(rssi: -90, snr: -6) == -96)
        #expect(SignalBucket.signal(rssi: -90, snr: nil) == -90)
        #expect(SignalBucket(signal: SignalBucket.signal(rssi: -93, snr: -2.5)) == .b100)
        #expect(SignalBucket(signal: SignalBucket.signal(rssi: -93, snr: 2.5)) == .high)
    }

    @Test func reachLevelsAreTheFirstThresholdExceeded() {
        #expect(ReachLevel(signal: -99.9) == .above100)
        #expect(ReachLevel(signal: -100) == .above105)
        #expect(ReachLevel(signal: -119) == .above120)
        #expect(ReachLevel(signal: -120) == .any)
        #expect(ReachLevel.any.threshold == nil && ReachLevel.above110.threshold == -110)
    }
}
