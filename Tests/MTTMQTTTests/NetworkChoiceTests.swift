import MTTCore
import MTTMQTT
import Testing

/// `--network` read through the registry of network servers: each name to its server, the
/// simulated network speaking any of them, and the network id each server's samples carry.
@Suite("Network servers")
struct NetworkChoiceTests {
    @Test func eachNameIsItsServerAndFakeSpeaksAny() throws {
        #expect(try NetworkChoice(parsing: nil).description == "tts")
        for name in ["tts", "chirpstack", "helium"] {
            let choice = try NetworkChoice(parsing: name)
            #expect(choice.server.name == name && !choice.simulated)
            let fake = try NetworkChoice(parsing: "fake?format=\(name)")
            #expect(fake.server.name == name && fake.simulated)
        }
        #expect(try NetworkChoice(parsing: "fake").server == .theThingsStack)
        #expect(throws: SpecError("unknown network ttn: use tts, chirpstack or helium, or fake[?format=NAME][&trackers=N][&testers=N]")) { try NetworkChoice(parsing: "ttn") }
    }

    /// `fake?trackers=N` (issue 43): the simulated network also hears N simulated trackers, in any
    /// network's format; a count out of range or an unknown option is refused with the forms.
    @Test func theSimulatedNetworkTakesTrackers() throws {
        let both = try NetworkChoice(parsing: "fake?format=chirpstack&trackers=20")
        #expect(both.server == .chirpStack && both.simulated && both.trackers == 20 && both.description == "fake?format=chirpstack&trackers=20")
        #expect(try NetworkChoice(parsing: "fake?trackers=3").description == "fake?trackers=3")
        let testers = try NetworkChoice(parsing: "fake?testers=2&trackers=5")
        #expect(testers.testers == 2 && testers.trackers == 5 && testers.description == "fake?trackers=5&testers=2")
        #expect(try NetworkChoice(parsing: "fake").trackers == 0)
        let usage = "the simulated network's options are format=NAME (NAME tts, chirpstack or helium), trackers=N (1 to 10000) and testers=N (field testers, 1 to 100), e.g. fake?format=chirpstack&trackers=20"
        for bad in ["fake?trackers=0", "fake?trackers=10001", "fake?trackers=many", "fake?speed=2", "fake?", "fake?format=ttn", "fake?testers=101"] {
            #expect(throws: SpecError("bad network \(bad): \(usage)")) { try NetworkChoice(parsing: bad) }
        }
    }

    @Test func eachServerSaysWhichNetworkItsSamplesBelongTo() throws {
        func id(_ network: String, given: String? = nil) throws -> String {
            try NetworkChoice(parsing: network).format(networkID: given, host: "cs.example.org").networkID
        }
        // The Things Stack's messages name their network themselves.
        #expect(try id("tts") == "")
        #expect(try id("chirpstack") == "NS_CHIRP://cs.example.org")
        #expect(try id("chirpstack", given: "lns.example.org") == "NS_CHIRP://lns.example.org")
        #expect(try id("helium") == "NS_HELIUM://000024")
        #expect(try id("helium", given: "NS_HELIUM://000099") == "NS_HELIUM://000099")
    }

    @Test func theTopicsAreTheServersOwn() throws {
        let subscription = NetworkSubscription(username: "my-app@ttn", application: "17c82e96-be03-4f38-aef3-f83d48582d97", devices: ["+"], simulated: false)
        #expect(try NetworkChoice(parsing: "tts").topics(subscription) == ["v3/my-app@ttn/devices/+/up"])
        #expect(try NetworkChoice(parsing: "helium").topics(subscription) == ["application/17c82e96-be03-4f38-aef3-f83d48582d97/device/+/event/up"])
    }
}
