import Foundation
import MTTMQTT
import TestSupport
import Testing

/// A store that stops taking records stops the reader, and the reader's credits stop libmosquitto's
/// thread: the backlog stays in the broker. The connection must outlive that, and the catch-up after
/// it, however long each lasts against the keep-alive; a clean session that drops loses the backlog.
@Suite("MQTT: a stalled reader keeps its connection")
struct StalledReaderTests {
    static let topic = "stall/uplinks"

    @Test func aStallAndACatchUpLongerThanTheKeepAliveLoseNothing() async throws {
        let broker = try await MosquittoBroker.start()
        var settings = BrokerTests.settings(broker)
        // The broker closes a connection it has heard nothing from for 1.5 keep-alives (7.5 s here);
        // libmosquitto closes its own when a ping's answer is a keep-alive late. (5 s is the least
        // libmosquitto takes.)
        settings.keepAlive = 5
        let credits = MessageCredits(limit: 100)
        let events = MQTTSubscription(settings: settings, topics: [Self.topic], credits: credits).events()
        let count = 30_000
        let reader = Task {
            var batches = events.makeAsyncIterator()
            var seen: [MQTTEvent] = []
            while let batch = await batches.next() {
                seen += batch
                if seen.contains(.connected) { break }
            }
            try await broker.publish(topic: Self.topic, lines: (1...count).map(String.init))
            // The stalled store: nothing read and no credit given back for twice what the broker allows.
            try await Task.sleep(for: .seconds(15))
            var payloads: [Int] = []
            var losses: [String] = []
            // Until every message is in, or the connection is lost (which loses the rest).
            while payloads.count < count, losses.isEmpty, let batch = await batches.next() {
                for event in batch {
                    switch event {
                    case .message(_, let payload): payloads.append(Int(String(decoding: payload, as: UTF8.self)) ?? -1)
                    case .lost(let reason), .failed(let reason): losses.append(reason)
                    case .connected: break
                    }
                }
                credits.give(batch.count { if case .message = $0 { true } else { false } })
                // A slow store: at most 100 messages each 40 ms, so the catch-up lasts some 12 s,
                // past the answer to any ping libmosquitto sent as it began.
                try? await Task.sleep(for: .milliseconds(40))
            }
            return (seen, payloads, losses)
        }
        // Only for a reader stuck for good: beside a second suite the slow catch-up took 160 s.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(900))
            reader.cancel()
        }
        defer { watchdog.cancel() }
        let (seen, payloads, losses) = try await reader.value
        #expect(seen == [.connected], "\(seen)")
        #expect(losses.isEmpty, "\(losses)")
        #expect(payloads == Array(1...count), "\(payloads.count) of \(count) received")
    }
}
