@testable import MTTWeb
import MTTCore
import Testing

/// The map server's rules on what it is asked: filters read strictly, the token checked whole,
/// a slow event client losing its oldest events rather than holding anything up.
@Suite("Map requests")
struct MapRequestTests {
    @Test func filtersAreReadOrRefusedWithTheReason() throws {
        let query = try MapQuery([("session", "3"), ("since", "2026-06-21T10:00:00Z")])
        #expect(query.filter.session == 3 && query.filter.since == RFC3339.parse("2026-06-21T10:00:00Z"))
        // The grammar of every command's --since: a length of time ago, too.
        let now = try #require(RFC3339.parse("2026-06-21T12:00:00Z"))
        let recent = try MapQuery([("since", "6h"), ("until", "30m")], now: now)
        #expect(recent.filter.since == RFC3339.parse("2026-06-21T06:00:00Z") && recent.filter.until == RFC3339.parse("2026-06-21T11:30:00Z"))
        for (items, reason) in [
            ([("session", "0")], "session must be a session number, not 0"),
            ([("until", "noon")], "until noon is neither an RFC 3339 time (2026-06-21T08:00:00Z) nor a length of time ago (6h, 2d)"),
            ([("limit", "5")], "unknown parameter limit (session, since, until)"),
            ([("since", "2026-06-21T11:00:00Z"), ("until", "2026-06-21T10:00:00Z")], "until is before since"),
            ([("since", "2h"), ("until", "3h")], "until is before since"),
            ([("since", "2300-01-01T00:00:00Z")], "since 2300-01-01T00:00:00Z is outside the years mtt keeps (1678 to 2261)"),
            ([("since", "2026-02-30T00:00:00Z")], "since 2026-02-30T00:00:00Z is not an RFC 3339 time such as 2026-06-21T08:00:00Z"),
            ([("since", "2026-06-21T10:00:00-99:59")], "since 2026-06-21T10:00:00-99:59 is not an RFC 3339 time such as 2026-06-21T08:00:00Z"),
            ([("since", "999999999999d")], "since 999999999999d is longer than 100 years"),
            ([("session", "1"), ("session", "2")], "session is given twice"),
        ] {
            #expect(throws: MapQuery.Invalid.self) { try MapQuery(items) }
            do { _ = try MapQuery(items) } catch { #expect(error.description == reason) }
        }
    }

    @Test func theTokenIsNeededOffLoopbackOnlyAndComparedWhole() {
        #expect(WebAccess.isLoopback("127.0.0.1") && WebAccess.isLoopback("::1") && WebAccess.isLoopback("localhost"))
        #expect(!WebAccess.isLoopback("0.0.0.0") && !WebAccess.isLoopback("192.168.4.1"))
        let access = WebAccess(token: "abc123")
        #expect(access.allows(authorization: "Bearer abc123", queryToken: nil))
        #expect(access.allows(authorization: nil, queryToken: "abc123"))
        #expect(!access.allows(authorization: "Bearer abc12", queryToken: nil))
        #expect(!access.allows(authorization: nil, queryToken: "abc1234"))
        #expect(!access.allows(authorization: nil, queryToken: nil))
        #expect(WebAccess(token: nil).allows(authorization: nil, queryToken: nil))
        let generated = WebAccess.generateToken()
        #expect(generated.count == 32 && generated.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }

    @Test func aSlowEventClientLosesItsOldestEvents() {
        let queue = EventQueue(limit: 3)
        for i in 1...5 { queue.put([UInt8(i)]) }
        #expect(queue.next(within: 0.1) == .some([3]))
        #expect(queue.next(within: 0.1) == .some([4]))
        #expect(queue.next(within: 0.1) == .some([5]))
        #expect(queue.next(within: 0.1) == .some(nil), "an empty queue times out")
        queue.close()
        #expect(queue.next(within: 0.1) == nil)
    }
}
