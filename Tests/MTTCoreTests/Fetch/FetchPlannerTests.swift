import MTTCore
import TestSupport
import Testing

/// Which sessions `mtt fetch` completes, in which window, for which devices.
@Suite("Fetch planning")
struct FetchPlannerTests {
    let now = RFC3339.parse("2026-11-23T18:00:00Z")!

    @Test func sessionsOfTheWindowWithTheirDevicesAndAWarningForWhatTTNNoLongerKeeps() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.file("plan.sqlite"))
        let hour = 3_600.0
        func session(_ mode: CollectionMode, startedHoursAgo: Double, lasting: Double = 1, devices: [String] = []) throws -> Int64 {
            let id = try store.sessions.startSession(mode: mode, at: now.adding(seconds: -startedHoursAgo * hour), SessionDescription(devices: devices))
            try store.sessions.endSession(id, at: now.adding(seconds: (-startedHoursAgo + lasting) * hour))
            return id
        }
        let old = try session(.listener, startedHoursAgo: 30, devices: ["mapper-node-1", "mapper-node-2"])
        let all = try session(.matching, startedHoursAgo: 5, devices: ["+"])
        let imported = try session(.imported, startedHoursAgo: 4)
        let silent = try session(.active, startedHoursAgo: 3)
        let active = try session(.active, startedHoursAgo: 2)
        try store.records.record(Attempt(sessionID: active, node: "fake:1", payload: [2], fix: nil, sentAt: now.adding(seconds: -2 * hour), devEUI: "0004A30B001C0530"))

        let planner = FetchPlanner()
        let day = try planner.targets(in: store, since: now.adding(seconds: -24 * hour), now: now)
        // The old session ended 29 h ago; nothing sent in the silent one; an import has no network.
        #expect(day.map(\.session.id) == [all, active])
        #expect(!day.map(\.session.id).contains(imported) && !day.map(\.session.id).contains(silent))
        #expect(day[0].devices == nil, "+ reads the whole application")
        #expect(day[1].devices == nil && day[1].devEUIs == ["0004A30B001C0530"])
        #expect(day[0].after == now.adding(seconds: -5 * hour - 120) && day[0].before == now.adding(seconds: -4 * hour + 120))
        #expect(day.allSatisfy { $0.warning == nil })

        let twoDays = try planner.targets(in: store, since: now.adding(seconds: -48 * hour), now: now)
        let first = try #require(twoDays.first)
        #expect(first.session.id == old && first.devices == ["mapper-node-1", "mapper-node-2"])
        #expect(first.warning == "session \(old) started 30 h ago: TTN's community network keeps uplinks 24 h, so those older are gone")

        // `sync --fetch`: a session a fetch completed once the network had written it all is done.
        try store.sessions.markFetched(session: all, at: now.adding(seconds: -3 * hour))
        try store.sessions.markFetched(session: active, at: now.adding(seconds: -hour + 10))
        let unfetched = try planner.targets(in: store, since: now.adding(seconds: -24 * hour), onlyUnfetched: true, now: now)
        #expect(unfetched.map(\.session.id) == [active], "fetched 10 s after its end, the active session may have missed late uplinks")
        let chosen = try planner.targets(in: store, since: now.adding(seconds: -24 * hour), devices: ["mapper-node-9"], now: now)
        #expect(chosen.allSatisfy { $0.devices == ["mapper-node-9"] })
    }
}
