import MTTCore
import Testing

@Suite("Counts with their nouns")
struct CountTextTests {
    @Test func oneIsSingularAndEveryOtherCountPlural() {
        #expect(CountText.of(1, "gateway") == "1 gateway")
        #expect(CountText.of(0, "gateway") == "0 gateways")
        #expect(CountText.of(3, "fix", plural: "fixes") == "3 fixes")
        // The simulated network of one configured gateway, as the run names it.
        let one = SimulatedUplinkFeed(network: SimulatedNetwork(gateways: [.init(id: "sim-gw-1", eui: "B827EBFFFE000001", position: GeoPoint(latitude: 52, longitude: 5))]), clock: SystemClock())
        #expect(one.description == "simulated network (1 gateway)")
    }

    @Test func agesAndLengthsReadAsAPersonSaysThem() {
        #expect(SpokenDuration.age(13_462_604.6) == "155 days")
        #expect(SpokenDuration.age(4.25) == "4.3 s" || SpokenDuration.age(4.25) == "4.2 s")
        #expect(SpokenDuration.age(-42) == "-42 s")
        #expect(SpokenDuration.length(840) == "14 min")
        #expect(SpokenDuration.length(7500) == "2 h 05 min")
    }
}
