import Foundation
import MTTCore
import TestSupport
import Testing

@Suite("Store: opening for what a command needs")
struct StoreAccessTests {
    let dir = TemporaryDirectory()

    /// status, export and sync on a mistyped path say so and create nothing.
    @Test(arguments: [Store.Access.existing, .readOnly])
    func aMissingDatabaseIsAnErrorNotANewFile(_ access: Store.Access) throws {
        let path = dir.file("typo/mt.sqlite")
        #expect {
            try Store(path: path, access: access)
        } throws: { "\($0)" == "there is no database at \(path); nothing has been collected there yet" }
        #expect(!FileManager.default.fileExists(atPath: path) && !FileManager.default.fileExists(atPath: dir.file("typo")))
    }

    /// A database mtt may only read (a copy handed over, a read-only mount) still shows its records.
    @Test func aReadOnlyDatabaseCanBeRead() throws {
        let path = dir.file("ro/mtt.sqlite")
        do {
            let store = try Store(path: path)
            _ = try store.sessions.startSession(mode: .active)
        }
        chmod(path, 0o400)
        chmod(dir.file("ro"), 0o500)
        defer { chmod(dir.file("ro"), 0o700) }
        let store = try Store(path: path, access: .readOnly)
        #expect(try store.status().sessions == 1)
    }

    /// A FIFO would hang SQLite's open; /dev/null would fail every write as "the disk is full".
    @Test func aPathThatIsNotARegularFileIsRefusedAtOnce() throws {
        let fifo = dir.file("pipe.sqlite")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect { try Store(path: fifo) } throws: { "\($0)" == "\(fifo) is a FIFO, not a database file; mtt left it untouched" }
        #expect { try Store(path: "/dev/null") } throws: { "\($0)" == "/dev/null is a device, not a database file; mtt left it untouched" }
        #expect { try Store(path: dir.path) } throws: { "\($0)" == "\(dir.path) is a folder, not a database file; mtt left it untouched" }
    }

    /// Collecting into a damaged file is refused before the run starts, not found at its end.
    @Test func aDamagedDatabaseIsRefusedWhenOpenedForRecording() throws {
        let path = dir.file("damaged.sqlite")
        do {
            let store = try Store(path: path)
            let session = try store.sessions.startSession(mode: .listener)
            for i in 0..<2_000 {
                try store.records.record(Uplink(deviceID: "d\(i)", receivedAt: Timestamp(nanosecondsSinceEpoch: Int64(i)), payload: Array(repeating: 7, count: 64)), session: session)
            }
        }
        // Overwrite a page in the middle of the file (the WAL was checkpointed when the store closed).
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seek(toOffset: 40 * 4096)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 4096))
        try handle.close()
        #expect {
            try Store(path: path)
        } throws: { error in
            "\(error)".hasPrefix("cannot read the database \(path): damaged: ")
        }
    }

    @Test func exportNeverWritesOverTheDatabase() throws {
        let path = dir.file("own.sqlite")
        let store = try Store(path: path)
        for own in [path, path + "-wal", path + "-shm", dir.path + "/./own.sqlite", dir.path + "/../" + (dir.path as NSString).lastPathComponent + "/own.sqlite"] {
            #expect(store.isOwnFile(String(own)), "\(own)")
        }
        #expect(!store.isOwnFile(dir.file("own.csv")))
    }
}

@Suite("Store: uplinks a stopped run left without a sample")
struct UnplacedUplinkTests {
    let dir = TemporaryDirectory()

    @Test func theNextStartPlacesThemOnTheirTrackOrSaysWhyNot() throws {
        let store = try Store(path: dir.file("u.sqlite"))
        let t0 = Timestamp(nanosecondsSinceEpoch: 1_782_036_900_000_000_000)
        let session = try store.sessions.startSession(mode: .listener, at: t0)
        for second in [0.0, 10] {
            try store.records.record(Fix(time: t0.adding(seconds: second), latitude: 52, longitude: 5 + second / 1000, mode: .threeD, source: "t"), session: session)
        }
        let inside = try store.records.record(Uplink(deviceID: "d", receivedAt: t0.adding(seconds: 5)), session: session)
        let after = try store.records.record(Uplink(deviceID: "d", receivedAt: t0.adding(seconds: 60)), session: session)
        #expect(try store.records.placeUnplacedUplinks().total == 2)
        let samples = try store.records.samples(session: session)
        let byUplink = Dictionary(uniqueKeysWithValues: samples.compactMap { s -> (Int64, Sample)? in
            guard case .uplink(let id) = s.subject else { return nil }
            return (id, s)
        })
        #expect(byUplink[inside]?.position == GeoPoint(latitude: 52, longitude: 5.005))
        #expect(byUplink[after]?.position == nil && byUplink[after]?.reason == "after the track ends (50 s late)")
        // Placed once: a second start finds nothing to do.
        #expect(try store.records.placeUnplacedUplinks().total == 0)
    }
}
