import Foundation
import MTTCore
import MTTPostgres
import TestSupport
import Testing

/// `mtt community` as a community's administrator runs it (issue 29), against a real PostgreSQL.
@Suite("mtt community")
struct CommunityCommandTests {
    let mtt = MTTCommand()

    @Test func initAddAMapperAndAMapReader() async throws {
        let server = try await PostgresServer.start()
        try server.createDatabase("coverage")
        let url = server.url(database: "coverage")
        let admin = ["PGPASSWORD": PostgresServer.adminPassword]

        let early = try await mtt.run(["community", "add-mapper", "alice", "--url", url], environment: admin)
        #expect(early.status == 1 && early.stderr == "mtt: this database has no community schema yet: run mtt community init first\n", "\(early.stderr)")

        let created = try await mtt.run(["community", "init", "--url", url], environment: admin)
        #expect(created.status == 0 && created.stdout.contains("has schema version \(CommunityDatabase.latestSchemaVersion) (created)"), "\(created.stdout)\(created.stderr)")
        let again = try await mtt.run(["community", "init", "--url", url], environment: admin)
        #expect(again.status == 0 && again.stdout.contains("is up to date (schema version \(CommunityDatabase.latestSchemaVersion))"), "\(again.stdout)\(again.stderr)")

        let added = try await mtt.run(["community", "add-mapper", "alice", "--url", url], environment: admin)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("url = \"postgresql://alice@127.0.0.1:\(server.port)/coverage\""), "\(added.stdout)")
        // The printed ~/.pgpass line logs alice in: what the mapper is told is what works.
        let line = try #require(added.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("127.0.0.1:\(server.port):coverage:alice:") })
        let password = String(line.split(separator: ":").last ?? "")
        #expect(try server.psql("SELECT rolname FROM pg_roles WHERE pg_has_role(rolname, 'coverage_mapper', 'member') AND rolname = 'alice'", database: "coverage") == "alice")
        let asAlice = try await ChildProcess.run("/usr/bin/env", [
            "PGPASSWORD=\(password)", "psql", "-X", "-A", "-t", "-h", "127.0.0.1", "-p", String(server.port), "-U", "alice", "-d", "coverage",
            "-c", "SELECT count(*) FROM mtt.cells",
        ])
        #expect(asAlice.status == 0 && asAlice.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(asAlice.stderr)")

        let twice = try await mtt.run(["community", "add-mapper", "alice", "--url", url], environment: admin)
        #expect(twice.status == 1 && twice.stderr == "mtt: role \"alice\" already exists\n", "\(twice.stderr)")

        let map = try await mtt.run(["community", "grant-map", "citymap", "--url", url], environment: admin)
        #expect(map.status == 0 && map.stdout.contains("map reader citymap can now connect"), "\(map.stdout)\(map.stderr)")

        let wrong = try await mtt.run(["community", "init", "--url", url], environment: ["PGPASSWORD": "wrong"])
        #expect(wrong.status == 1 && wrong.stderr.hasPrefix("mtt: cannot reach the community database: ")
            && wrong.stderr.contains("password authentication failed") && wrong.stderr.split(separator: "\n").count == 1, "\(wrong.stderr)")
        let inTheURL = try await mtt.run(["community", "init", "--url", "postgresql://mtt_admin:secret@127.0.0.1:\(server.port)/coverage"])
        #expect(inTheURL.status == 64 && inTheURL.stderr.contains("--url carries a password"), "\(inTheURL.stderr)")
    }
}
