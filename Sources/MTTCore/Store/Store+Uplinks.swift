import FoundationEssentials
import Glibc
import GRDB

extension Store {
    /// Stores an uplink and one row per gateway reception, in one transaction.
    @discardableResult
    public func record(_ uplink: Uplink, session: Int64) throws -> Int64 {
        try batch { try Self.insert(uplink, session: session, $0) }
    }

    static func insert(_ uplink: Uplink, session: Int64, _ batch: Batch) throws -> Int64 {
        var row = try RowInsert(batch, sql: """
            INSERT INTO uplinks (session_id, device_id, application_id, dev_eui, dev_addr, f_port, f_cnt,
                                 frequency, spreading_factor, bandwidth, coding_rate, received_at, airtime,
                                 payload, network_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        row.bind(session)
        row.bind(uplink.deviceID)
        row.bind(uplink.applicationID)
        row.bind(uplink.devEUI)
        row.bind(uplink.devAddr)
        row.bind(uplink.fPort)
        row.bind(uplink.fCnt.map { Int64($0) })
        row.bind(uplink.frequency.map { Int64(clamping: $0) })
        row.bind(uplink.spreadingFactor)
        row.bind(uplink.bandwidth)
        row.bind(uplink.codingRate)
        row.bind(uplink.receivedAt.nanosecondsSinceEpoch)
        row.bind(uplink.airtime)
        row.bind(blob: uplink.payload)
        row.bind(uplink.networkID)
        let uplinkID = try row.run()
        for r in uplink.receptions {
            var reception = try RowInsert(batch, sql: """
                INSERT INTO receptions (uplink_id, gateway_id, gateway_eui, rssi, channel_rssi, signal_rssi, snr,
                                        time, concentrator_timestamp, channel_index, antenna_index, lat, lon, alt,
                                        packet_broker)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            reception.bind(uplinkID)
            reception.bind(r.gatewayID)
            reception.bind(r.gatewayEUI)
            reception.bind(r.rssi)
            reception.bind(r.channelRSSI)
            reception.bind(r.signalRSSI)
            reception.bind(r.snr)
            reception.bind(r.time?.nanosecondsSinceEpoch)
            reception.bind(r.concentratorTimestamp.map { Int64($0) })
            reception.bind(r.channelIndex)
            reception.bind(r.antennaIndex)
            reception.bind(r.location?.latitude)
            reception.bind(r.location?.longitude)
            reception.bind(r.location?.altitude)
            reception.bind(r.viaPacketBroker)
            _ = try reception.run()
        }
        batch.coverage.stored(uplink, id: uplinkID)
        return uplinkID
    }

    public func uplink(_ id: Int64) throws -> Uplink? {
        try read { db in try Self.uplink(id, db) }
    }

    /// Cached statements: a sync reads one uplink per sample, and compiling the two queries each
    /// time was a third of an upload's CPU.
    static func uplink(_ id: Int64, _ db: Database) throws -> Uplink? {
        // Rows read through cursors: a cursor's row finds a column by name in a table made once;
        // a fetched copy lowercased every column name for each lookup (a sixth of an upload's
        // work on mtt's side).
        let receptions = try Array(Row.fetchCursor(
            db.cachedStatement(sql: "SELECT * FROM receptions WHERE uplink_id = ? ORDER BY id"), arguments: [id]
        ).map { r -> GatewayReception in
            let lat: Double? = r["lat"]
            let lon: Double? = r["lon"]
            return GatewayReception(
                gatewayID: r["gateway_id"], gatewayEUI: r["gateway_eui"], rssi: r["rssi"],
                channelRSSI: r["channel_rssi"], signalRSSI: r["signal_rssi"], snr: r["snr"],
                time: (r["time"] as Int64?).map(Timestamp.init(nanosecondsSinceEpoch:)),
                concentratorTimestamp: (r["concentrator_timestamp"] as Int64?).map { UInt32(truncatingIfNeeded: $0) },
                channelIndex: r["channel_index"], antennaIndex: r["antenna_index"],
                location: lat.flatMap { la in lon.map { GeoPoint(latitude: la, longitude: $0, altitude: r["alt"]) } },
                viaPacketBroker: r["packet_broker"])
        })
        let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT * FROM uplinks WHERE id = ?"), arguments: [id])
        // The cursor must outlive the reading of its row.
        return try withExtendedLifetime(rows) { () throws -> Uplink? in
            guard let row = try rows.next() else { return nil }
            let payload: Data = row["payload"]
            return Uplink(
                id: row["id"], deviceID: row["device_id"], applicationID: row["application_id"],
                devEUI: row["dev_eui"], devAddr: row["dev_addr"], fPort: row["f_port"],
                fCnt: (row["f_cnt"] as Int64?).map { UInt32(truncatingIfNeeded: $0) },
                frequency: (row["frequency"] as Int64?).map { UInt64(clamping: $0) },
                spreadingFactor: row["spreading_factor"], bandwidth: row["bandwidth"], codingRate: row["coding_rate"],
                receivedAt: Timestamp(nanosecondsSinceEpoch: row["received_at"]), airtime: row["airtime"],
                payload: [UInt8](payload), networkID: row["network_id"], receptions: receptions)
        }
    }
}
