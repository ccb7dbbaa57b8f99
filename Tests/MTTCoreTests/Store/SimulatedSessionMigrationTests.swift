import Foundation
import GRDB
import MTTCore
import TestSupport
import Testing

/// A database written before sessions were marked: its simulated runs are found by the specs they
/// kept and held from sync like new ones, so an upgrade never sends them.
@Suite("Sessions recorded before simulation was marked")
struct SimulatedSessionMigrationTests {
    let dir = TemporaryDirectory()

    @Test func olderSimulatedSessionsAreMarkedByTheirSpecs() throws {
        let path = dir.file("old.sqlite")
        _ = try Store(path: path)
        // Back to the layout before migration 5, with two sessions as an older mtt wrote them.
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: """
                DROP INDEX sessions_by_source_hash;
                ALTER TABLE sessions DROP COLUMN name;
                ALTER TABLE sessions DROP COLUMN simulated;
                ALTER TABLE sessions DROP COLUMN sync_excluded;
                ALTER TABLE sessions DROP COLUMN source_hash;
                DELETE FROM grdb_migrations WHERE identifier = '5';
                INSERT INTO sessions (mode, started_at, nodes, gps, network) VALUES ('active', 1, 'fake:2', 'fake', 'fake');
                INSERT INTO sessions (mode, started_at, nodes, gps, network) VALUES ('active', 2, 'ble:auto', 'gpsd://127.0.0.1:2947', 'mqtts://eu1.cloud.thethings.network:8883');
                INSERT INTO sessions (mode, started_at, nodes, gps, network) VALUES ('listener', 3, NULL, 'nmea:drive.nmea', 'mqtts://eu1.cloud.thethings.network:8883');
                """)
        }
        try queue.close()
        let store = try Store(path: path)
        #expect(try store.sessions.session(1)?.description.simulated == ["fake node", "fake GPS", "simulated network"])
        #expect(try store.sessions.session(2)?.isSimulated == false)
        #expect(try store.sessions.session(3)?.description.simulated == ["GPS replayed from a file"])
    }
}
