import Foundation
import MTTCore
import MTTHTTP
import MTTMQTT
import Synchronization
import TestSupport
import Testing

/// Reading The Things Stack's Storage Integration over real HTTP on loopback: every page, each
/// uplink once and in order, whatever way the server pages, waits or breaks.
@Suite("The Storage Integration reader")
struct StorageReaderTests {
    static let window = StoredUplinkQuery(device: nil, after: StoredUplinks.start.adding(seconds: -60), before: StoredUplinks.start.adding(seconds: 86_400))

    /// A server holding `count` uplinks, and a reader for it.
    static func serve(_ count: Int, _ change: (inout StorageIntegrationServer.Behaviour) -> Void = { _ in }) throws -> (StorageIntegrationServer, TTSStorageReader, [Uplink]) {
        var behaviour = StorageIntegrationServer.Behaviour()
        change(&behaviour)
        let server = try StorageIntegrationServer(behaviour)
        // What the reader must give back: each message as the MQTT decoder reads it.
        var uplinks: [Uplink] = []
        for uplink in StoredUplinks.make(count) {
            let json = UplinkEncoder.json(uplink)
            server.store(String(decoding: json, as: UTF8.self))
            guard case .uplink(let decoded) = try UplinkDecoder.decode(json) else { continue }
            uplinks.append(decoded)
        }
        var reader = TTSStorageReader(cluster: URL(string: server.baseURL)!, application: "mtt-demo", apiKey: "NNSXS.TEST-KEY", transport: HTTPTransport(timeout: 10, connections: 1))
        reader.pageSize = 1000
        return (server, reader, uplinks)
    }

    /// Everything a read handed on.
    final class Items: Sendable {
        let all = Mutex<[StoredUplinkItem]>([])
        var uplinks: [Uplink] { all.withLock { $0.compactMap { if case .uplink(let u) = $0 { u } else { nil } } } }
        var broken: Int { all.withLock { $0.count { if case .broken = $0 { true } else { false } } } }
        var waits: [Double] { all.withLock { $0.compactMap { if case .waiting(let s, _) = $0 { s } else { nil } } } }
        func add(_ item: StoredUplinkItem) -> Bool { all.withLock { $0.append(item) }; return true }
    }

    @Test(arguments: [true, false])
    func everyPageIsReadEachUplinkOnceInOrder(byToken: Bool) async throws {
        let (server, reader, sent) = try Self.serve(2_500) { $0.pagingByToken = byToken }
        let items = Items()
        try await reader.read(Self.window, handle: items.add)
        #expect(items.uplinks == sent, "\(items.uplinks.count) of \(sent.count) read")
        let requests = server.requests
        #expect(requests.count == 3, "\(requests.map(\.path))")
        #expect(requests.allSatisfy { $0.headers["authorization"] == "Bearer NNSXS.TEST-KEY" })
        if byToken {
            // After the first page only the token is sent, escaped.
            #expect(requests.dropFirst().allSatisfy { $0.path.contains("continuation_token=") && !$0.path.contains("after=") && $0.path.contains("%2B") })
        } else {
            // The next page starts after the last uplink of the one before.
            #expect(requests[1].path.contains("after=\(RFC3339.string(sent[999].receivedAt, fractionDigits: 9))"))
        }
    }

    @Test func aRateLimitIsWaitedOutThenTheReadGoesOn() async throws {
        let (server, reader, sent) = try Self.serve(10) {
            $0.rateLimited = 2
            $0.retryAfter = 1
        }
        let items = Items()
        let started = ContinuousClock.now
        try await reader.read(Self.window, handle: items.add)
        #expect(items.waits == [1, 1])
        #expect(ContinuousClock.now - started >= .seconds(2))
        #expect(items.uplinks == sent, "\(items.uplinks.count) of \(sent.count) read")
        #expect(server.requests.count == 3)
    }

    @Test func aServerThatNeverStopsAskingToWaitIsGivenUp() async throws {
        var (_, reader, _) = try Self.serve(10) {
            $0.rateLimited = 1_000
            $0.retryAfter = 1
        }
        reader.longestWaits = 3
        let items = Items()
        await #expect {
            try await reader.read(Self.window, handle: items.add)
        } throws: { error in
            "\(error)".contains("still asks to wait after 3 s of waiting; fetch again later")
        }
        #expect(items.waits == [1, 1, 1])
    }

    @Test(arguments: [false, true])
    func brokenLinesAreSkippedAndCountedInBothStreamForms(eventStream: Bool) async throws {
        var (server, reader, sent) = try Self.serve(100) { $0.brokenEvery = 10 }
        reader.eventStream = eventStream
        let items = Items()
        try await reader.read(Self.window, handle: items.add)
        #expect(items.uplinks == sent, "\(items.uplinks.count) of \(sent.count) read")
        #expect(items.broken == 10)
        #expect(server.requests[0].headers["accept"] == (eventStream ? "text/event-stream" : "application/json"))
    }

    @Test func anErrorObjectEndsTheReadWithItsMessageAfterWhatCameBefore() async throws {
        let (_, reader, sent) = try Self.serve(1_500) { $0.errorAfterFirstPage = "error:pkg/storage:read_failed (storage unavailable)" }
        let items = Items()
        await #expect(throws: FetchError.server("error:pkg/storage:read_failed (storage unavailable)")) {
            try await reader.read(Self.window, handle: items.add)
        }
        #expect(items.uplinks == Array(sent.prefix(1000)), "\(items.uplinks.count) read")
    }

    @Test func aRefusalSaysWhatIsWrongAndWhatToDo() async throws {
        var (server, reader, _) = try Self.serve(1) { $0.keyWithoutRights = "NNSXS.NO-RIGHTS" }
        let items = Items()
        do {
            try await TTSStorageReader(cluster: reader.cluster, application: "mtt-demo", apiKey: "NNSXS.WRONG", transport: HTTPTransport(timeout: 5, connections: 1))
                .read(Self.window, handle: items.add)
            Issue.record("a wrong key was accepted")
        } catch {
            #expect(error.description.hasPrefix("the API key was not accepted (401"), "\(error)")
            #expect(error.endsTheFetch)
        }
        do {
            try await TTSStorageReader(cluster: reader.cluster, application: "mtt-demo", apiKey: "NNSXS.NO-RIGHTS", transport: HTTPTransport(timeout: 5, connections: 1))
                .read(Self.window, handle: items.add)
            Issue.record("a key without rights was accepted")
        } catch {
            #expect(error.description.contains("403") && error.description.contains("Read application traffic"), "\(error)")
        }
        server.behave { $0.active = false }
        reader.pageSize = 10
        do {
            try await reader.read(Self.window, handle: items.add)
            Issue.record("an inactive integration answered")
        } catch {
            #expect(error == .notActivated(error.description))
            #expect(error.description.contains("Integrations → Storage Integration → Activate"), "\(error)")
        }
        #expect(items.uplinks.isEmpty)
    }
}
