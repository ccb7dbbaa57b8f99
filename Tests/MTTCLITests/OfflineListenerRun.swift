import Foundation
import MTTCore
import MTTMQTT
import TestSupport
import Testing

extension MTTCommand {
    /// A listener run with no --mqtt-url, then a Storage Integration holding three uplinks of the
    /// session's device heard during it (and one of another device the session does not name).
    func offlineListenerRun() async throws -> StorageIntegrationServer {
        let run = try await run([
            "collect", "--mode", "listener", "--gps", "fixed:52.0907,5.1214", "--device", "mapper-node-1",
            "--mqtt-user", "mtt-demo@ttn", "--duration", "3s", "--db", database,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let store = try Store(path: database)
        // The run's own session: the newest, whatever the database held before.
        let session = try #require(try store.sessions.sessions(since: Timestamp(nanosecondsSinceEpoch: 0)).max { $0.id < $1.id })
        #expect(session.description.devices == ["mapper-node-1"] && session.description.mqttUser == "mtt-demo@ttn")
        #expect(try store.status().gpsSamples >= 2)
        let storage = try StorageIntegrationServer()
        for uplink in StoredUplinks.make(3, from: session.startedAt.adding(seconds: 0.5)) {
            storage.store(String(decoding: UplinkEncoder.json(uplink), as: UTF8.self))
        }
        storage.store(String(decoding: UplinkEncoder.json(StoredUplinks.make(1, device: "someone-else", from: session.startedAt)[0]), as: UTF8.self))
        return storage
    }
}
