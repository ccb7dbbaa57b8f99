import Foundation
import MTTCore
@testable import MTTPostgres
import TestSupport
import Testing

/// The community database defends itself (issue 47): a mapper's own SQL session tries every
/// attack found against it, each is refused, and the map the other mappers see stays as it is on
/// a database nobody attacked, byte for byte.
@Suite("A hostile mapper", .serialized)
struct HostileMapperTests {
    /// Alice's drive in its own community database; `mallory` is a second mapper there.
    struct Community {
        let server: PostgresServer
        let admin: CommunityDatabase
        let alice: PostgresConnection
        let mallory: PostgresConnection
        let aliceURL: String
        let store: Store
        let database: String

        /// The schema version it was made at (nil: the latest).
        let version: Int?

        init(on server: PostgresServer, database: String, through version: Int? = nil) throws {
            self.server = server
            self.version = version
            self.database = database
            try server.createDatabase(database)
            admin = CommunityDatabase(try PostgresConnection(server.connectionString(database: database)))
            if let version { try admin.migrate(through: version) } else { try admin.migrate() }
            let a = try admin.addMapper("alice_\(database)"), m = try admin.addMapper("mallory_\(database)")
            aliceURL = server.connectionString(user: a.name, password: a.password, database: database)
            alice = try PostgresConnection(aliceURL)
            mallory = try PostgresConnection(server.connectionString(user: m.name, password: m.password, database: database))
            store = try Store(path: TemporaryDirectory("mtt-hostile").file("alice.sqlite"))
            try MapTestData.drive(store)
        }

        func uploadAlicesDrive() async throws {
            for (kind, ids) in [(SyncRecordKind.sample, Array(Int64(1)...40)), (.attempt, Array(1...60))] {
                if let version, version < 4 {
                    try OlderCommunityUpload.upload(ids, of: store, as: aliceURL, kind: kind)
                } else {
                    try await CommunityDatabaseTests.upload(ids, of: store, as: aliceURL, kind: kind)
                }
            }
        }
    }

    /// What the map and QGIS read, as text: every row of every view of the coverage, in order.
    static func map(_ c: PostgresConnection) throws -> String {
        let views = [
            "mtt.cells": "x, y", "mtt.gateway_cells": "x, y, network, gateway, antenna", "mtt.unheard_cells": "x, y",
            "mtt.gateways": "network, gateway, antenna", "mtt.reach": "network, gateway, antenna, level",
            "mtt.reach_beams": "network, gateway, antenna, level, bearing", "mtt.coverage_rows": "x, y, network, gateway, antenna, sf",
            "mtt.attempt_rows": "x, y, sf",
        ]
        return try views.keys.sorted().map { view in
            let rows = try c.execute("SELECT v::text FROM \(view) v ORDER BY \(views[view]!)").rows.map { $0[0] ?? "NULL" }
            return "\(view)\n" + rows.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// Runs `sql` as `connection` and expects PostgreSQL to refuse it with `reason`, in one line.
    static func refused(_ connection: PostgresConnection, _ sql: String, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(sourceLocation: sourceLocation) {
            try connection.execute(sql)
        } throws: { error in
            "\(error)".contains(reason) && !"\(error)".contains("\n")
        }
    }

    /// Mallory's own session and one valid sample of it, id `id`, at `here` now.
    static func mallorysSample(_ c: PostgresConnection, db: String, id: Int, time: String = "now()", sf: String = "10") throws {
        try c.execute("INSERT INTO mtt.sessions (db, id, mode, started_at) VALUES ('\(db)', 1, 'active', now() - interval '1 hour') ON CONFLICT DO NOTHING")
        try c.execute("""
            INSERT INTO mtt.samples (db, id, session_id, time, method, geom, network, sf)
            VALUES ('\(db)', \(id), 1, \(time), 'tx_time', ST_SetSRID(ST_MakePoint(5.1214, 52.0907), 4326), 'NS_TTS_V3://ttn@000013', \(sf))
            """)
    }

    @Test func everyAttackIsRefusedAndTheMapStaysAsOnAnUntouchedDatabase() async throws {
        let server = try await PostgresServer.start()
        let untouched = try Community(on: server, database: "untouched")
        try await untouched.uploadAlicesDrive()
        let attacked = try Community(on: server, database: "attacked")
        let alicesDB = try attacked.store.databaseID()
        let m = attacked.mallory
        let own = UUID().uuidString.lowercased()

        // Squatting: Alice's database UUID is known (the file target prints it); Mallory takes
        // her next ids before she uploads them. They become Mallory's rows, not Alice's.
        try Self.mallorysSample(m, db: alicesDB, id: 1)
        try Self.mallorysSample(m, db: alicesDB, id: 2)
        try await attacked.uploadAlicesDrive()
        #expect(try attacked.alice.execute("SELECT count(*) FROM mtt.samples").value == "40", "Alice's uploads were dropped as repeats")
        // Receptions on Alice's samples, and probing for her rows.
        Self.refused(m, "INSERT INTO mtt.receptions (db, sample_id, time, n, gateway, rssi) VALUES ('\(alicesDB)', 3, now(), 9, 'gw-fake', -40)",
                     "receptions of samples that are not stored")
        #expect(try m.execute("SELECT count(*) FROM mtt.samples WHERE db = '\(alicesDB)' AND id = 3").value == "0")

        // Values no radio gives, each poisoning an aggregate for good before.
        try Self.mallorysSample(m, db: own, id: 1)
        for (value, check) in [("'NaN'", "receptions_rssi_range"), ("1e308", "receptions_rssi_range"), ("'-Infinity'", "receptions_rssi_range")] {
            Self.refused(m, "INSERT INTO mtt.receptions (db, sample_id, time, n, gateway, rssi, snr) VALUES ('\(own)', 1, now(), 0, 'gw-start', \(value), 5)",
                         "violates check constraint \"\(check)\"")
        }
        Self.refused(m, "INSERT INTO mtt.receptions (db, sample_id, time, n, gateway, rssi, snr) VALUES ('\(own)', 1, now(), 0, 'gw-start', -90, -1e308)",
                     "violates check constraint \"receptions_snr_range\"")
        Self.refused(m, "INSERT INTO mtt.receptions (db, sample_id, time, n, gateway, rssi, gateway_geom) VALUES ('\(own)', 1, now(), 0, 'gw-start', -90, ST_SetSRID(ST_MakePoint(500, 91), 4326))",
                     "violates check constraint \"receptions_gateway_geom_range\"")
        #expect(throws: PostgresError.self) { try Self.mallorysSample(m, db: own, id: 2, sf: "2000000000") }
        #expect(throws: PostgresError.self) { try Self.mallorysSample(m, db: own, id: 3, time: "'2099-01-01T00:00:00Z'") }
        Self.refused(m, "INSERT INTO mtt.attempts (db, id, session_id, sent_at, state, heard, network_known, geom) VALUES ('\(own)', 1, 1, 'infinity', 'confirmed', false, true, ST_SetSRID(ST_MakePoint(5.12, 52.09), 4326))",
                     "violates check constraint \"attempts_sent_at_range\"")
        Self.refused(m, "INSERT INTO mtt.attempts (db, id, session_id, sent_at, state, heard, network_known, geom) VALUES ('\(own)', 1, 1, now(), 'confirmed', false, true, ST_SetSRID(ST_MakePoint('NaN', 52.09), 4326))",
                     "violates check constraint \"attempts_geom_range\"")

        #expect(try Self.map(attacked.admin.connection) == Self.map(untouched.admin.connection))
        #expect(try m.execute("SELECT count(*) FROM mtt.cells").value != "0")

        // Moving Alice's gateway to Paris with a reception of its own: Mallory's one vote against
        // Alice's earlier one. Where it stands does not move.
        let north = "SELECT ST_AsText(geom) FROM mtt.gateways WHERE gateway = 'gw-north'"
        let before = try m.execute(north).value
        try Self.mallorysSample(m, db: own, id: 4)
        try m.execute("""
            INSERT INTO mtt.receptions (db, sample_id, time, n, gateway, rssi, snr, gateway_geom)
            SELECT db, id, time, 0, 'gw-north', -100, 1, ST_SetSRID(ST_MakePoint(2.35, 48.85), 4326) FROM mtt.samples WHERE db = '\(own)' AND id = 4
            """)
        #expect(try m.execute(north).value == before)
        #expect(before?.hasPrefix("POINT(5.12") == true, "\(before ?? "nil")")
    }

    /// A mapper's name that PostgreSQL reads as something else is refused, each in one line.
    @Test func namesPostgreSQLReadsOtherwiseAreNoMappersNames() async throws {
        let server = try await PostgresServer.start()
        try server.createDatabase("names")
        let admin = CommunityDatabase(try PostgresConnection(server.connectionString(database: "names")))
        try admin.migrate()
        for name in ["current_user", "SESSION_USER", "public", ".", "..", "pg_monitor", "-x"] {
            #expect(throws: PostgresError.self, "\(name) was taken") { try admin.addMapper(name) }
        }
        #expect(try admin.addMapper("alice.b-2").name == "alice.b-2")
    }

    /// Reach shows no mapper's exact farthest place or time: the cell's centre and the day.
    @Test func reachShowsTheCellNotThePlace() async throws {
        let server = try await PostgresServer.start()
        let community = try Community(on: server, database: "reach")
        try await community.uploadAlicesDrive()
        let beams = try community.mallory.execute("""
            SELECT count(*), count(*) FILTER (WHERE date_trunc('day', max_at) = max_at),
                   count(*) FILTER (WHERE ST_Equals(geom, ST_Centroid(mtt.tile_polygon(mtt.tile_x(ST_X(geom)), mtt.tile_y(ST_Y(geom))))))
            FROM mtt.reach_beams
            """).rows[0]
        #expect(beams[0] != "0" && beams[1] == beams[0] && beams[2] == beams[0], "\(beams)")
        #expect(throws: PostgresError.self) { try community.mallory.execute("SELECT count(*) FROM mtt.coverage_reach") }
        #expect(throws: PostgresError.self) { try community.mallory.execute("SELECT count(*) FROM mtt.refused_rows") }
    }

    /// A database the earlier schema let poison is repaired by the migration: the bad rows are
    /// moved aside with their reasons, and the map is the untouched database's again.
    @Test func theMigrationMovesPoisonAsideAndCountsAgain() async throws {
        let server = try await PostgresServer.start()
        let untouched = try Community(on: server, database: "clean")
        try await untouched.uploadAlicesDrive()
        let old = try Community(on: server, database: "poisoned", through: 2)
        try await old.uploadAlicesDrive()
        let own = UUID().uuidString.lowercased()
        try Self.mallorysSample(old.mallory, db: own, id: 1)
        try old.mallory.execute("INSERT INTO mtt.receptions (db, sample_id, n, gateway, rssi, snr) VALUES ('\(own)', 1, 0, 'gw-start', 'NaN', 5)")
        try Self.mallorysSample(old.mallory, db: own, id: 2, time: "'2099-01-01T00:00:00Z'")
        try old.mallory.execute("INSERT INTO mtt.receptions (db, sample_id, n, gateway, rssi, snr, gateway_geom) VALUES ('\(own)', 2, 0, 'gw-north', -60, 5, ST_SetSRID(ST_MakePoint(2.35, 48.85), 4326))")
        #expect(try Self.map(old.admin.connection) != Self.map(untouched.admin.connection), "the poison did not show before the repair")

        #expect(try old.admin.migrate().to == CommunityDatabase.latestSchemaVersion)
        let refused = try old.admin.connection.execute("SELECT table_name, reason FROM mtt.refused_rows ORDER BY 1, 2").rows.map { "\($0[0]!) \($0[1]!)" }
        #expect(refused == ["mtt.receptions its sample is not stored", "mtt.receptions receptions_rssi_range", "mtt.samples samples_time_range"])
        #expect(try old.admin.refusedRows().map { "\($0.reason) \($0.rows)" }
            == ["mtt.receptions: its sample is not stored 1", "mtt.receptions: receptions_rssi_range 1", "mtt.samples: samples_time_range 1"])
        #expect(try Self.map(old.admin.connection) == Self.map(untouched.admin.connection))
    }
}
