import GRDB

/// The database layout. Migrations are append-only: a released one is never edited.
enum StoreSchema {
    /// "mtt1" in the SQLite header, so mtt recognises its own files and refuses other programs' databases.
    static let applicationID: UInt32 = 0x6D74_7431

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("1") { db in
            try db.execute(sql: "PRAGMA application_id = \(Int32(bitPattern: applicationID))")
            try db.execute(sql: """
                CREATE TABLE meta (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                );
                CREATE TABLE sessions (
                    id INTEGER PRIMARY KEY,
                    mode TEXT NOT NULL,
                    started_at INTEGER NOT NULL,
                    ended_at INTEGER,
                    nodes TEXT,
                    gps TEXT,
                    network TEXT,
                    note TEXT,
                    mtt_version TEXT
                );
                CREATE TABLE fixes (
                    id INTEGER PRIMARY KEY,
                    session_id INTEGER NOT NULL REFERENCES sessions(id),
                    time INTEGER NOT NULL,
                    lat REAL NOT NULL,
                    lon REAL NOT NULL,
                    alt_hae REAL,
                    alt_msl REAL,
                    eph REAL,
                    epv REAL,
                    hdop REAL,
                    satellites INTEGER,
                    speed REAL,
                    track REAL,
                    mode INTEGER NOT NULL,
                    source TEXT NOT NULL
                );
                CREATE INDEX fixes_by_session_time ON fixes(session_id, time);
                CREATE TABLE uplinks (
                    id INTEGER PRIMARY KEY,
                    session_id INTEGER NOT NULL REFERENCES sessions(id),
                    device_id TEXT NOT NULL,
                    application_id TEXT,
                    dev_eui TEXT,
                    dev_addr TEXT,
                    f_port INTEGER,
                    f_cnt INTEGER,
                    frequency INTEGER,
                    spreading_factor INTEGER,
                    bandwidth INTEGER,
                    coding_rate TEXT,
                    received_at INTEGER NOT NULL,
                    airtime REAL,
                    payload BLOB NOT NULL,
                    network_id TEXT
                );
                CREATE INDEX uplinks_by_device_fcnt ON uplinks(dev_eui, f_cnt);
                CREATE TABLE receptions (
                    id INTEGER PRIMARY KEY,
                    uplink_id INTEGER NOT NULL REFERENCES uplinks(id),
                    gateway_id TEXT NOT NULL,
                    gateway_eui TEXT,
                    rssi REAL,
                    channel_rssi REAL,
                    signal_rssi REAL,
                    snr REAL,
                    time INTEGER,
                    concentrator_timestamp INTEGER,
                    channel_index INTEGER,
                    antenna_index INTEGER,
                    lat REAL,
                    lon REAL,
                    alt REAL,
                    packet_broker INTEGER NOT NULL DEFAULT 0
                );
                CREATE INDEX receptions_by_uplink ON receptions(uplink_id);
                CREATE TABLE attempts (
                    id INTEGER PRIMARY KEY,
                    session_id INTEGER NOT NULL REFERENCES sessions(id),
                    node TEXT NOT NULL,
                    sequence INTEGER,
                    payload BLOB NOT NULL,
                    fix_id INTEGER REFERENCES fixes(id),
                    sent_at INTEGER NOT NULL,
                    state TEXT NOT NULL CHECK (state IN ('pending', 'confirmed', 'failed')),
                    f_cnt INTEGER,
                    dev_eui TEXT,
                    resolved_at INTEGER,
                    failure_reason TEXT,
                    uplink_id INTEGER REFERENCES uplinks(id)
                );
                CREATE INDEX attempts_by_state ON attempts(state);
                CREATE TABLE samples (
                    id INTEGER PRIMARY KEY,
                    session_id INTEGER NOT NULL REFERENCES sessions(id),
                    uplink_id INTEGER REFERENCES uplinks(id),
                    attempt_id INTEGER REFERENCES attempts(id),
                    time INTEGER NOT NULL,
                    lat REAL,
                    lon REAL,
                    alt REAL,
                    method TEXT NOT NULL,
                    reason TEXT
                );
                CREATE INDEX samples_by_uplink ON samples(uplink_id);
                CREATE TABLE sync_state (
                    target TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    record_id INTEGER NOT NULL,
                    state TEXT NOT NULL CHECK (state IN ('sent', 'rejected')),
                    tries INTEGER NOT NULL DEFAULT 0,
                    message TEXT,
                    updated_at INTEGER NOT NULL,
                    PRIMARY KEY (target, kind, record_id)
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("2") { db in
            // A record the TTN Mapper quality gate holds back from the main map is marked "held":
            // it leaves the main queue but still goes to an experiment. SQLite cannot change a CHECK
            // constraint in place, so the table is rebuilt with its rows.
            try db.execute(sql: """
                CREATE TABLE sync_state_new (
                    target TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    record_id INTEGER NOT NULL,
                    state TEXT NOT NULL CHECK (state IN ('sent', 'rejected', 'held')),
                    tries INTEGER NOT NULL DEFAULT 0,
                    message TEXT,
                    updated_at INTEGER NOT NULL,
                    PRIMARY KEY (target, kind, record_id)
                ) WITHOUT ROWID;
                INSERT INTO sync_state_new SELECT * FROM sync_state;
                DROP TABLE sync_state;
                ALTER TABLE sync_state_new RENAME TO sync_state;
                """)
        }
        migrator.registerMigration("3") { db in
            // Each node's state in a run, written as it changes, for `mtt status` in another process;
            // what `mtt fetch` needs to complete a session offline.
            // A rowid table: the rowid keeps the order the run named its nodes in.
            try db.execute(sql: """
                CREATE TABLE node_states (
                    session_id INTEGER NOT NULL REFERENCES sessions(id),
                    node TEXT NOT NULL,
                    state TEXT NOT NULL CHECK (state IN ('connected', 'lost')),
                    reason TEXT,
                    since INTEGER NOT NULL,
                    reconnects INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (session_id, node)
                );
                -- Where `mtt fetch` finds a session's uplinks later (The Things Stack's Storage
                -- Integration): the MQTT server and user it was run with, the devices it heard
                -- (space-separated, + for all), and when a fetch last completed it.
                ALTER TABLE sessions ADD COLUMN mqtt_url TEXT;
                ALTER TABLE sessions ADD COLUMN mqtt_user TEXT;
                ALTER TABLE sessions ADD COLUMN devices TEXT;
                ALTER TABLE sessions ADD COLUMN fetched_at INTEGER;
                -- An uplink is stored once whether MQTT or a fetch brought it: found by device and
                -- the network server's receive time.
                CREATE INDEX uplinks_by_device_time ON uplinks(device_id, received_at);
                -- A fetched uplink finds the attempt it was by DevEUI and frame counter.
                CREATE INDEX attempts_by_device_fcnt ON attempts(dev_eui, f_cnt);
                """)
        }
        migrator.registerMigration("4") { db in
            // What happened during a drive, in the schema of docs/events.md, for `mtt events`: the
            // events' JSON as hooks received it (the per-second position reports are not kept).
            try db.execute(sql: """
                CREATE TABLE events (
                    id INTEGER PRIMARY KEY,
                    session_id INTEGER REFERENCES sessions(id),
                    time INTEGER NOT NULL,
                    type TEXT NOT NULL,
                    json TEXT NOT NULL
                );
                CREATE INDEX events_by_time ON events(time);
                CREATE INDEX receptions_by_gateway ON receptions(gateway_id);
                -- `mtt events` finds the attempt each heard uplink was (else a scan of every
                -- attempt per uplink).
                CREATE INDEX attempts_by_uplink ON attempts(uplink_id);
                """)
        }
        migrator.registerMigration("5") { db in
            // Sessions a user sees and manages (`mtt sessions`): a name; what in the run was
            // simulated (", "-separated parts), whose records a plain `mtt sync` never sends;
            // sessions the user left out of sync; an import's file hash, so a file is imported once.
            try db.execute(sql: """
                ALTER TABLE sessions ADD COLUMN name TEXT;
                ALTER TABLE sessions ADD COLUMN simulated TEXT;
                ALTER TABLE sessions ADD COLUMN sync_excluded INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE sessions ADD COLUMN source_hash TEXT;
                CREATE INDEX sessions_by_source_hash ON sessions(source_hash);
                """)
            // Sessions recorded before: the specs they kept say what was simulated.
            for row in try Row.fetchAll(db, sql: "SELECT id, nodes, gps, network FROM sessions") {
                let parts = SimulatedParts.of(nodesText: row[SessionColumns.nodes], gpsText: row[SessionColumns.gps], networkText: row[SessionColumns.network])
                guard !parts.isEmpty else { continue }
                try db.execute(
                    sql: "UPDATE sessions SET simulated = ? WHERE id = ?", arguments: [parts.joined(separator: ", "), row[SessionColumns.id] as Int64])
            }
        }
        migrator.registerMigration("6") { db in
            // A record kind a target's server answered 404/405 for (a MapTheThings server without
            // /samples): not sent to that server again, and not counted as waiting for it.
            try db.execute(sql: """
                CREATE TABLE sync_unaccepted (
                    target TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    server TEXT NOT NULL,
                    reason TEXT NOT NULL,
                    at INTEGER NOT NULL,
                    PRIMARY KEY (target, kind)
                );
                """)
        }
        migrator.registerMigration("7") { db in
            // The spreading factor an attempt was sent at, for the map's unheard dots.
            try db.execute(sql: "ALTER TABLE attempts ADD COLUMN spreading_factor INTEGER")
        }
        migrator.registerMigration("8") { db in
            // Coverage: cells per gateway antenna, attempts per cell, reach (kept as records are
            // stored: CoverageAccumulator, the attempts' triggers); made from what the database
            // already holds.
            try db.execute(sql: CoverageSQL.tables)
            try db.execute(sql: CoverageSQL.triggers)
            try Store.rebuildCoverage(sessions: nil, gateways: nil, db)
        }
        migrator.registerMigration("9") { db in
            // Each cell's totals over sessions, gateways and SFs, for the map's unfiltered views.
            try db.execute(sql: CoverageSQL.totalsTable)
            try Store.rebuildCoverageTotals(db)
        }
        migrator.registerMigration("10") { db in
            // Trackers' uplinks sent and not heard, from the gaps in their frame counters: apart
            // from the attempts a node reported, and counted apart in each cell (`estimated`).
            try db.execute(sql: """
                CREATE TABLE estimated_attempts (
                    id INTEGER PRIMARY KEY,
                    session_id INTEGER NOT NULL REFERENCES sessions(id),
                    device_id TEXT NOT NULL,
                    dev_eui TEXT,
                    f_cnt INTEGER NOT NULL,
                    sent_at INTEGER NOT NULL,
                    lat REAL,
                    lon REAL,
                    alt REAL,
                    reason TEXT,
                    spreading_factor INTEGER,
                    heard_before INTEGER NOT NULL REFERENCES uplinks(id),
                    heard_after INTEGER NOT NULL REFERENCES uplinks(id)
                );
                CREATE INDEX estimated_attempts_by_session ON estimated_attempts(session_id);
                -- A device's sessions count the frames lost before each heard uplink.
                CREATE INDEX estimated_attempts_by_heard_after ON estimated_attempts(heard_after);
                ALTER TABLE coverage_attempts ADD COLUMN estimated INTEGER NOT NULL DEFAULT 0;
                """)
            try db.execute(sql: CoverageSQL.estimatedTrigger)
        }
        migrator.registerMigration("11") { db in
            // The reply each field tester's test was answered with: what its screen showed, for
            // the map and the exports.
            try db.execute(sql: """
                CREATE TABLE field_test_replies (
                    uplink_id INTEGER PRIMARY KEY REFERENCES uplinks(id),
                    reply BLOB NOT NULL,
                    reason TEXT,
                    sent_at INTEGER NOT NULL
                );
                """)
        }
        migrator.registerMigration("12") { db in
            // LinkCheck (`--linkcheck`): how many gateways the network said heard each attempt (0
            // when no answer came; NULL when none was asked) and the margin, counted per cell
            // apart from what the network's uplinks tell.
            try db.execute(sql: """
                ALTER TABLE attempts ADD COLUMN linkcheck_gateways INTEGER;
                ALTER TABLE attempts ADD COLUMN linkcheck_margin INTEGER;
                """)
            try db.execute(sql: CoverageSQL.linkCheckTable)
            try db.execute(sql: CoverageSQL.linkCheckTriggers)
        }
        migrator.registerMigration("13") { db in
            // The uplinks indexed by their network receive time alone, which grows as they come,
            // so each commit adds to the index's last pages. Keyed by device first, each uplink of
            // a fleet landed on another page: a listener hearing 1,000 devices wrote every page of
            // two such indexes again at each commit, and stored 27,500 uplinks a second where it
            // stores 73,000 now (shared/bench, issue 49). The DevEUI-and-counter index was read by
            // no query. A stored uplink is still found by its time (then device and counter); a
            // device's sessions are read sorted instead of in index order.
            try db.execute(sql: """
                DROP INDEX IF EXISTS uplinks_by_device_fcnt;
                DROP INDEX IF EXISTS uplinks_by_device_time;
                CREATE INDEX IF NOT EXISTS uplinks_by_time ON uplinks(received_at);
                """)
        }
        migrator.registerMigration("14") { db in
            // Gateways that moved more than 100 m (`GatewayMove`): their places, read from the
            // receptions already stored, and the cells from before a move kept apart as history.
            try db.execute(sql: CoverageSQL.movesTables)
            try Store.rebuildCoverage(sessions: nil, gateways: nil, db)
            try Store.rebuildCoverageTotals(db)
        }
        return migrator
    }
}
