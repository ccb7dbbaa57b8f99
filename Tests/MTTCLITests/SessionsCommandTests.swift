import Foundation
import MTTCore
import TestSupport
import Testing

/// Issue 33, item 2: sessions a user can see, name, keep out of sync and delete; `sync --dry-run`
/// and `--session`.
@Suite("mtt sessions and sync --dry-run")
struct SessionsCommandTests {
    let login = ["MTT_MAPTHETHINGS_USER": "alice", "MTT_MAPTHETHINGS_TOKEN": "t", "MTT_MAPTHETHINGS_SECRET": "s"]

    /// Two real sessions of confirmed attempts: 20 and 5.
    func prepared() throws -> MTTCommand {
        let mtt = MTTCommand()
        let store = try Store(path: mtt.database)
        _ = try SyncTestData.addConfirmedAttempts(20, to: store)
        _ = try SyncTestData.addConfirmedAttempts(5, to: store)
        return mtt
    }

    @Test func theListSaysWhatEachSessionHoldsAndWhereItsRecordsAre() async throws {
        let mtt = try prepared()
        let list = try await mtt.run(["sessions", "--db", mtt.database])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("Session 1\n") && list.stdout.contains("Session 2\n"), "\(list.stdout)")
        #expect(list.stdout.contains("21 attempts (0 heard, loss 100 %, 1 failed)"), "\(list.stdout)")
        #expect(list.stdout.contains("sync: mapthethings 20 waiting") && list.stdout.contains("sync: mapthethings 5 waiting"), "\(list.stdout)")

        let named = try await mtt.run(["sessions", "name", "1", "A40 eastbound", "--db", mtt.database])
        #expect(named.status == 0, "\(named.stderr)")
        let json = try await mtt.run(["sessions", "--json", "--db", mtt.database])
        let first = try JSONSerialization.jsonObject(with: Data(json.stdout.split(separator: "\n")[0].utf8)) as? [String: Any]
        let session = first?["session"] as? [String: Any]
        #expect(session?["name"] as? String == "A40 eastbound" && first?["attempts"] as? Int == 21, "\(json.stdout)")

        let missing = try await mtt.run(["sessions", "name", "9", "x", "--db", mtt.database])
        #expect(missing.status == 1 && missing.stderr.contains("there is no session 9"), "\(missing.stderr)")
    }

    @Test func anExcludedSessionIsHeldAndTheDryRunSaysSoWithoutSending() async throws {
        let mtt = try prepared()
        let server = try LoopbackHTTPServer { _ in .status(201, "{}") }
        #expect(try await mtt.run(["sessions", "exclude", "1", "--db", mtt.database]).status == 0)

        let dry = try await mtt.run(["sync", "--target", "mapthethings", "--url", server.baseURL, "--dry-run", "--db", mtt.database], environment: login)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("mapthethings: would send 5 attempts"), "\(dry.stdout)")
        #expect(dry.stdout.contains("20 record(s) of sessions excluded from sync held back"), "\(dry.stdout)")
        #expect(server.requests.isEmpty)

        let sync = try await mtt.run(["sync", "--target", "mapthethings", "--url", server.baseURL, "--db", mtt.database], environment: login)
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(server.requests.count == 5)

        #expect(try await mtt.run(["sessions", "include", "1", "--db", mtt.database]).status == 0)
        let only = try await mtt.run(
            ["sync", "--target", "mapthethings", "--url", server.baseURL, "--session", "1", "--db", mtt.database], environment: login)
        #expect(only.status == 0 && only.stdout.contains("mapthethings: 20 sent"), "\(only.stdout) \(only.stderr)")
        #expect(server.requests.count == 25)
    }

    @Test func aSessionOnlyGoesWhenItIsAskedFor() async throws {
        let mtt = try prepared()
        let server = try LoopbackHTTPServer { _ in .status(201, "{}") }
        let dry = try await mtt.run(
            ["sync", "--target", "mapthethings", "--url", server.baseURL, "--session", "2", "--dry-run", "--db", mtt.database], environment: login)
        #expect(dry.stdout.contains("mapthethings: would send 5 attempts"), "\(dry.stdout)")
        let sync = try await mtt.run(
            ["sync", "--target", "mapthethings", "--url", server.baseURL, "--session", "2", "--db", mtt.database], environment: login)
        #expect(sync.status == 0 && server.requests.count == 5, "\(sync.stderr)")
        let status = try Store(path: mtt.database, access: .readOnly).status()
        #expect(status.unsynced["mapthethings"] == 20)
        let none = try await mtt.run(["sync", "--session", "7", "--db", mtt.database], environment: login)
        #expect(none.status == 1 && none.stderr.contains("there is no session 7"), "\(none.stderr)")
    }

    @Test func deletingNeedsYesAndTakesEveryRecordOfTheSession() async throws {
        let mtt = try prepared()
        let asked = try await mtt.run(["sessions", "delete", "1", "--db", mtt.database])
        #expect(asked.status == 1 && asked.stderr.contains("holds 21 attempts") && asked.stderr.contains("add --yes"), "\(asked.stderr)")
        #expect(try Store(path: mtt.database, access: .readOnly).status().attempts == 27)

        // What sync wrote about a deleted record goes with it.
        let server = try LoopbackHTTPServer { _ in .status(201, "{}") }
        _ = try await mtt.run(["sync", "--target", "mapthethings", "--url", server.baseURL, "--db", mtt.database], environment: login)
        let deleted = try await mtt.run(["sessions", "delete", "1", "--yes", "--db", mtt.database])
        #expect(deleted.status == 0 && deleted.stdout.contains("session 1 deleted: 21 attempts"), "\(deleted.stdout) \(deleted.stderr)")
        let store = try Store(path: mtt.database, access: .readOnly)
        #expect(try store.status().attempts == 6 && store.status().sessions == 1)
        #expect(try store.sync.syncCount(.mapthethings, state: .sent) == 5)
        #expect(try store.sessions.session(2) != nil && store.sessions.session(1) == nil)
    }
}
