@testable import MTTWeb
import MTTCore
import TestSupport
import Testing

/// The live map's feed on a clock the test moves: the status block each second, and the uplink
/// grace: an attempt nobody heard becomes a dot once, and only after its uplink had 30 s of the
/// feed's time to come, whatever the attempt's own time says. (A simulated run stamps its records
/// in the past; its unheard dots came at once, before their uplink could, and a heard attempt then
/// showed as two dots.)
@Suite("Live feed")
struct LiveFeedTests {
    let dir = TemporaryDirectory()
    let store: Store
    let clock = ManualClock()
    let feed: LiveFeed

    init() throws {
        store = try Store(path: dir.file("live.sqlite"))
        feed = LiveFeed(store: store, run: nil, clock: clock)
    }

    /// A client of the feed, once the feed has taken the database's newest records and waits for
    /// its first second.
    func subscribed() async -> EventQueue {
        let queue = feed.subscribe()
        #expect(await eventually(timeout: 120) { clock.sleepers == 1 })
        return queue
    }

    @Test func anUnheardAttemptComesOnceAfterItsGrace() async throws {
        defer { feed.stop() }
        let queue = await subscribed()

        let anHourAgo = clock.now().adding(seconds: -3600)
        let session = try store.sessions.startSession(mode: .active, at: anHourAgo, SessionDescription(nodes: "fake"))
        let fix = Fix(time: anHourAgo, latitude: 52.1, longitude: 5.1, mode: .threeD, source: "fixed")
        let attempt = try store.records.record(Attempt(sessionID: session, node: "fake:1", payload: [0x01], fix: fix, sentAt: anHourAgo))
        try store.records.failAttempt(attempt, reason: "no TX result", at: anHourAgo)

        var unheardDots = 0
        /// Time moved on by `seconds` at once: the feed wakes, looks once, and sleeps again.
        func after(_ seconds: Double) async throws {
            clock.advance(by: seconds)
            #expect(await eventually(timeout: 120) { clock.sleepers == 1 }, "the feed did not go back to sleep")
            while case .some(let event?) = queue.next(within: 0) {
                let text = String(decoding: event, as: UTF8.self)
                if text.hasPrefix("event: sample\n") && text.contains(#""status":"failed""#) { unheardDots += 1 }
            }
        }
        // The first look finds it and starts its grace; 29 s later it is still waiting, at 30 s it
        // is shown, and never again.
        try await after(1)
        try await after(29)
        #expect(unheardDots == 0, "an unheard dot came before its uplink's grace")
        try await after(1)
        #expect(unheardDots == 1)
        try await after(10)
        try await after(1)
        #expect(unheardDots == 1, "the unheard dot came \(unheardDots) times")
    }

    /// What the database holds reaches the status block in the feed's next second: an attempt
    /// stored while the feed sleeps is counted in the status event it sends when it wakes.
    @Test func theStatusBlockFollowsTheDatabaseEachSecond() async throws {
        defer { feed.stop() }
        let queue = await subscribed()
        /// The attempts count of the newest status event the feed has sent.
        func shownAttempts() -> Int? {
            var shown: Int?
            while case .some(let event?) = queue.next(within: 0) {
                let text = String(decoding: event, as: UTF8.self)
                guard text.hasPrefix("event: status\n"), let range = text.range(of: #""attempts":"#) else { continue }
                shown = Int(text[range.upperBound...].prefix { $0.isNumber })
            }
            return shown
        }
        #expect(shownAttempts() == 0)

        let session = try store.sessions.startSession(mode: .active, at: clock.now(), SessionDescription(nodes: "fake"))
        for sent in 1...3 {
            let fix = Fix(time: clock.now(), latitude: 52.1, longitude: 5.1, mode: .threeD, source: "fixed")
            _ = try store.records.record(Attempt(sessionID: session, node: "fake:1", payload: [UInt8(sent)], fix: fix, sentAt: clock.now()))
            clock.advance(by: 1)
            #expect(await eventually(timeout: 120) { clock.sleepers == 1 }, "the feed did not go back to sleep")
            #expect(shownAttempts() == sent, "the status block did not show attempt \(sent) in the second after it was stored")
        }
    }
}
