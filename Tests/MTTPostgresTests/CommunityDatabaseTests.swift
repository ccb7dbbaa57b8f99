import Foundation
import MTTCore
import MTTPostgres
import TestSupport
import Testing

/// The community database against a real PostgreSQL with PostGIS (issue 29): the schema and its
/// migrations, the aggregates its triggers keep, and the security the database itself enforces.
@Suite("The community database", .serialized)
struct CommunityDatabaseTests {
    /// A server with one empty database, `coverage`, and the administrator connected to it.
    static func community() async throws -> (PostgresServer, CommunityDatabase) {
        let server = try await PostgresServer.start()
        try server.createDatabase("coverage")
        let admin = try PostgresConnection(server.connectionString(database: "coverage"))
        return (server, CommunityDatabase(admin))
    }

    @Test func initCreatesTheSchemaOnceAndRefusesANewerOne() async throws {
        let (server, community) = try await Self.community()
        let first = try community.migrate()
        #expect(first.from == 0 && first.to >= 1)
        let again = try community.migrate()
        #expect(again.from == first.to && again.to == first.to)
        let tables = try server.psql("SELECT string_agg(table_name, ',' ORDER BY table_name) FROM information_schema.tables WHERE table_schema = 'mtt'", database: "coverage")
        for name in ["attempts", "samples", "receptions", "tracks", "sessions", "coverage_cells", "coverage_reach", "cells", "gateways", "reach", "mappers"] {
            #expect(tables.split(separator: ",").contains(Substring(name)), "no mtt.\(name) in \(tables)")
        }
        // Geometry columns in EPSG:4326, with GiST indexes, for QGIS.
        #expect(try server.psql("SELECT srid FROM geometry_columns WHERE f_table_schema = 'mtt' AND f_table_name = 'samples'", database: "coverage") == "4326")
        #expect(try server.psql("SELECT count(*) FROM pg_indexes WHERE schemaname = 'mtt' AND indexdef LIKE '%USING gist%'", database: "coverage") != "0")

        try server.psql("INSERT INTO mtt.schema_version (version) VALUES (99)", database: "coverage")
        #expect {
            try community.migrate()
        } throws: { error in
            "\(error)" == "the community database's schema is version 99, newer than this mtt knows (\(first.to)): update mtt"
        }
    }

    @Test func aWrongPasswordAndNoServerAreOneLineEach() async throws {
        let server = try await PostgresServer.start()
        #expect {
            try PostgresConnection(server.connectionString(password: "not-the-password"))
        } throws: { error in
            "\(error)".contains("password authentication failed for user \"\(PostgresServer.admin)\"") && !"\(error)".contains("\n")
        }
        server.stop()
        #expect {
            try PostgresConnection(server.connectionString())
        } throws: { error in
            "\(error)".contains("Connection refused") && !"\(error)".contains("\n")
        }
    }
}
