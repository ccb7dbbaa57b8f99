@testable import MTTWeb
import MTTCore
import TestSupport
import Testing

/// The live map's uplink grace, on a clock the test moves: an attempt nobody heard becomes a dot
/// once, and only after its uplink had 30 s of the feed's time to come, whatever the attempt's own
/// time says (a simulated run stamps its records in the past; its unheard dots came at once,
/// before their uplink could, and a heard attempt then showed as two dots).
@Suite("Live feed")
struct LiveFeedGraceTests {
    let dir = TemporaryDirectory()

    @Test func anUnheardAttemptComesOnceAfterItsGrace() async throws {
        let store = try Store(path: dir.file("live.sqlite"))
        let clock = ManualClock()
        let feed = LiveFeed(store: store, run: nil, clock: clock)
        defer { feed.stop() }
        let queue = feed.subscribe()
        // The feed has taken the database's newest records and waits for its first second.
        #expect(await eventually(timeout: 10) { clock.sleepers == 1 })

        let anHourAgo = clock.now().adding(seconds: -3600)
        let session = try store.startSession(mode: .active, at: anHourAgo, SessionDescription(nodes: "fake"))
        let fix = Fix(time: anHourAgo, latitude: 52.1, longitude: 5.1, mode: .threeD, source: "fixed")
        let attempt = try store.record(Attempt(sessionID: session, node: "fake:1", payload: [0x01], fix: fix, sentAt: anHourAgo))
        try store.failAttempt(attempt, reason: "no TX result", at: anHourAgo)

        var unheardDots = 0
        /// One second of the feed: it looks, then sleeps again.
        func second() async throws {
            clock.advance(by: 1)
            #expect(await eventually(timeout: 10) { clock.sleepers == 1 }, "the feed did not go back to sleep")
            while case .some(let event?) = queue.next(within: 0) {
                let text = String(decoding: event, as: UTF8.self)
                if text.hasPrefix("event: sample\n") && text.contains(#""status":"failed""#) { unheardDots += 1 }
            }
        }
        // The first look finds it and starts its grace; 30 s later it is shown.
        for _ in 1...30 { try await second() }
        #expect(unheardDots == 0, "an unheard dot came before its uplink's grace")
        try await second()
        #expect(unheardDots == 1)
        for _ in 1...10 { try await second() }
        #expect(unheardDots == 1, "the unheard dot came \(unheardDots) times")
    }
}
