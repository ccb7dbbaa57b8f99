import MTTMQTT
import Testing

@Suite("libmosquitto")
struct MosquittoLibraryTests {
    /// mtt relies on libmosquitto 2 behaviour (MQTT 3.1.1 defaults, TLS verification on by default).
    @Test func linkedLibraryIsVersionTwoAndInitialises() {
        #expect(MosquittoLibrary.version.major == 2, "linked libmosquitto \(MosquittoLibrary.version)")
        #expect(MosquittoLibrary.initialise())
    }
}
