import Foundation
import GRDB
import GRDBSQLite
import MTTCore
import TestSupport
import Testing

@Suite("Store: the database file")
struct StoreFileTests {
    let dir = TemporaryDirectory()

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    func contents(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test func createsFile0600InFolder0700() throws {
        let path = dir.file("field/mtt/mtt.sqlite")
        let store = try Store(path: path)
        _ = try store.sessions.startSession(mode: .active)
        #expect(try mode(path) == 0o600)
        #expect(try mode(dir.file("field/mtt")) == 0o700)
        #expect(try mode(path + "-wal") == 0o600)
    }

    @Test func usesWALWithFullSync() throws {
        let path = dir.file("wal.sqlite")
        _ = try Store(path: path)
        let header = try contents(path)
        // Bytes 18 and 19 of the header are 2 for a WAL database.
        #expect(header[18] == 2 && header[19] == 2)
    }

    // MTT_DB and the configuration file come before these, through Config (ConfigLayerTests).
    @Test func defaultPathFollowsDbThenXDG() {
        #expect(StoreLocation.resolve(explicit: "/x/a.sqlite", environment: ["XDG_DATA_HOME": "/z"]) == "/x/a.sqlite")
        #expect(StoreLocation.resolve(explicit: nil, environment: ["XDG_DATA_HOME": "/z", "HOME": "/home/m"]) == "/z/mtt/mtt.sqlite")
        #expect(StoreLocation.resolve(explicit: nil, environment: ["HOME": "/home/m"]) == "/home/m/.local/share/mtt/mtt.sqlite")
        // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
        #expect(StoreLocation.resolve(explicit: nil, environment: ["XDG_DATA_HOME": "rel", "HOME": "/home/m"]) == "/home/m/.local/share/mtt/mtt.sqlite")
    }

    @Test func refusesATextFileAndLeavesItUntouched() throws {
        let path = dir.file("notes.sqlite")
        let text = Data("lat,lon\n40.7,-74.0\n".utf8)
        try text.write(to: URL(fileURLWithPath: path))
        #expect {
            try Store(path: path)
        } throws: { error in
            "\(error)" == "\(path) is not an SQLite database; mtt left it untouched"
        }
        #expect(try contents(path) == text)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func refusesACorruptMTTDatabaseAndLeavesItUntouched() throws {
        let path = dir.file("corrupt.sqlite")
        do {
            let store = try Store(path: path)
            let session = try store.sessions.startSession(mode: .matching)
            for i in 0..<50 {
                try store.records.record(Fix(time: Timestamp(nanosecondsSinceEpoch: Int64(i)), latitude: 1, longitude: 2, mode: .threeD, source: "t"), session: session)
            }
        }
        // Checkpointed on close; now wreck page 1 past the header, where the schema lives.
        var bytes = try contents(path)
        for i in 100..<4096 { bytes[i] = UInt8(truncatingIfNeeded: i &* 31) }
        try bytes.write(to: URL(fileURLWithPath: path))
        try? FileManager.default.removeItem(atPath: path + "-wal")
        try? FileManager.default.removeItem(atPath: path + "-shm")

        #expect {
            try Store(path: path)
        } throws: { error in
            let line = "\(error)"
            return line.hasPrefix("cannot read the database \(path):") && line.hasSuffix("mtt left it untouched")
                && !line.contains("\n")
        }
        #expect(try contents(path) == bytes)
    }

    @Test func refusesAnotherProgramsSQLiteDatabase() throws {
        let path = dir.file("other.sqlite")
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                try db.execute(sql: "CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('Ada')")
            }
            try queue.close()
        }
        let other = try contents(path)
        #expect {
            try Store(path: path)
        } throws: { error in
            "\(error)" == "\(path) is an SQLite database of another program, not mtt's; mtt left it untouched"
        }
        #expect(try contents(path) == other)
    }
}

@Suite("Store: SQLite's process settings")
struct SQLiteSettingsTests {
    /// mtt turns SQLite's memory counters off (a global mutex on every allocation): once a store
    /// is open, SQLite has counted nothing.
    @Test func memoryCountersAreOffAndTheSettingWasMadeBeforeStart() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.file("m.sqlite"))
        _ = try store.sessions.startSession(mode: .active)
        #expect(sqlite3_memory_used() == 0)
        #expect(sqlite3_memory_highwater(0) == 0)
    }
}
