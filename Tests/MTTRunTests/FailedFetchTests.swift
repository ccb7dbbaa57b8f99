import Foundation
import MTTCore
import MTTHTTP
import MTTMQTT
import TestSupport
import Testing

/// A fetch the server refused says nothing about the drive (issue 34, item 12): its attempts are
/// not counted as lost and the session stays to be fetched.
@Suite("A failed fetch")
struct FailedFetchTests {
    @Test(arguments: [500, 302, 503])
    func countsNoAttemptAsLost(status: Int) async throws {
        let folder = TemporaryDirectory("mtt-failed-fetch")
        let store = try Store(path: folder.file("mtt.sqlite"))
        let start = Timestamp.now().adding(seconds: -600)
        let session = try store.sessions.startSession(mode: .active, at: start, SessionDescription(nodes: "fake", mqttUser: "mtt-demo@ttn"))
        for i in 0..<19 {
            let time = start.adding(seconds: Double(i * 10))
            let id = try store.records.record(Attempt(
                sessionID: session, node: "fake:1", payload: [2], fix: Fix(time: time, latitude: 52.09, longitude: 5.12, mode: .threeD, source: "test"),
                sentAt: time, devEUI: "0004A30B001C0530"))
            try store.records.confirmAttempt(id, frameCounter: UInt32(i), at: time)
        }
        try store.sessions.endSession(session, at: start.adding(seconds: 200))
        let server = try LoopbackHTTPServer { _ in .status(status, "<html>maintenance</html>", headers: status == 302 ? ["Location": "/login"] : [:]) }
        let targets = try FetchPlanner().targets(in: store, since: start.adding(seconds: -60))
        let reader = TTSStorageReader(cluster: URL(string: server.baseURL)!, application: "mtt-demo", apiKey: "NNSXS.TEST-KEY", transport: HTTPTransport(timeout: 10, connections: 1))
        let summary = await Fetcher(store: store).run(targets.map { ($0, reader) })
        #expect(summary.errors.count == 1 && summary.errors[0].contains("HTTP \(status)"), "\(summary.errors)")
        #expect(summary.lost == 0, "a failed fetch counted \(summary.lost) attempts as lost")
        #expect(try store.sessions.session(session)?.fetchedAt == nil)
    }
}
