import FoundationEssentials
import Glibc
import GRDB

extension Store {

    static func insert(_ uplink: Uplink, session: Int64, _ batch: Batch) throws -> Int64 {
        // Whatever the entry point, nothing out of physical range is stored (the sources that can
        // say so have screened and counted it already; this one is silent).
        let uplink = uplink.screened(receptionLimit: .max).uplink
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

    /// Cached statements: a sync reads one uplink per sample, and compiling the two queries each
    /// time was a third of an upload's CPU.
    static func uplink(_ id: Int64, _ db: Database) throws -> Uplink? {
        // Rows read through cursors: a cursor's row finds a column by name in a table made once;
        // a fetched copy lowercased every column name for each lookup (a sixth of an upload's
        // work on mtt's side).
        let receptions = try Array(Row.fetchCursor(
            db.cachedStatement(sql: "SELECT * FROM receptions WHERE uplink_id = ? ORDER BY id"), arguments: [id]
        ).map { r -> GatewayReception in
            let lat: Double? = r[ReceptionColumns.lat]
            let lon: Double? = r[ReceptionColumns.lon]
            return GatewayReception(
                gatewayID: r[ReceptionColumns.gatewayID], gatewayEUI: r[ReceptionColumns.gatewayEUI], rssi: r[ReceptionColumns.rssi],
                channelRSSI: r[ReceptionColumns.channelRSSI], signalRSSI: r[ReceptionColumns.signalRSSI], snr: r[ReceptionColumns.snr],
                time: (r[ReceptionColumns.time] as Int64?).map(Timestamp.init(nanosecondsSinceEpoch:)),
                concentratorTimestamp: (r[ReceptionColumns.concentratorTimestamp] as Int64?).map { UInt32(truncatingIfNeeded: $0) },
                channelIndex: r[ReceptionColumns.channelIndex], antennaIndex: r[ReceptionColumns.antennaIndex],
                location: lat.flatMap { la in lon.map { GeoPoint(latitude: la, longitude: $0, altitude: r[ReceptionColumns.alt]) } },
                viaPacketBroker: r[ReceptionColumns.packetBroker])
        })
        let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT * FROM uplinks WHERE id = ?"), arguments: [id])
        // The cursor must outlive the reading of its row.
        return try withExtendedLifetime(rows) { () throws -> Uplink? in
            guard let row = try rows.next() else { return nil }
            let payload: Data = row[UplinkColumns.payload]
            return Uplink(
                id: row[UplinkColumns.id], deviceID: row[UplinkColumns.deviceID], applicationID: row[UplinkColumns.applicationID],
                devEUI: row[UplinkColumns.devEUI], devAddr: row[UplinkColumns.devAddr], fPort: row[UplinkColumns.fPort],
                fCnt: (row[UplinkColumns.fCnt] as Int64?).map { UInt32(truncatingIfNeeded: $0) },
                frequency: (row[UplinkColumns.frequency] as Int64?).map { UInt64(clamping: $0) },
                spreadingFactor: row[UplinkColumns.spreadingFactor], bandwidth: row[UplinkColumns.bandwidth], codingRate: row[UplinkColumns.codingRate],
                receivedAt: Timestamp(nanosecondsSinceEpoch: row[UplinkColumns.receivedAt]), airtime: row[UplinkColumns.airtime],
                payload: [UInt8](payload), networkID: row[UplinkColumns.networkID], receptions: receptions)
        }
    }
}

extension StoreRecords {
    /// Stores an uplink and one row per gateway reception, in one transaction.
    @discardableResult
    public func record(_ uplink: Uplink, session: Int64) throws -> Int64 {
        try batch { try Store.insert(uplink, session: session, $0) }
    }

    public func uplink(_ id: Int64) throws -> Uplink? {
        try read { db in try Store.uplink(id, db) }
    }
}
