import Foundation
import GRDB

extension Store {
    /// Stores an uplink and one row per gateway reception, in one transaction.
    @discardableResult
    public func record(_ uplink: Uplink, session: Int64) throws -> Int64 {
        try write { db in try Self.insert(uplink, session: session, db) }
    }

    static func insert(_ uplink: Uplink, session: Int64, _ db: Database) throws -> Int64 {
        try db.executeCached(
            sql: """
                INSERT INTO uplinks (session_id, device_id, application_id, dev_eui, dev_addr, f_port, f_cnt,
                                     frequency, spreading_factor, bandwidth, coding_rate, received_at, airtime,
                                     payload, network_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                session, uplink.deviceID, uplink.applicationID, uplink.devEUI, uplink.devAddr, uplink.fPort,
                uplink.fCnt.map { Int64($0) }, uplink.frequency.map { Int64(clamping: $0) },
                uplink.spreadingFactor, uplink.bandwidth, uplink.codingRate,
                uplink.receivedAt.nanosecondsSinceEpoch, uplink.airtime, Data(uplink.payload), uplink.networkID,
            ])
        let uplinkID = db.lastInsertedRowID
        for r in uplink.receptions {
            try db.executeCached(
                sql: """
                    INSERT INTO receptions (uplink_id, gateway_id, gateway_eui, rssi, channel_rssi, signal_rssi, snr,
                                            time, concentrator_timestamp, channel_index, antenna_index, lat, lon, alt,
                                            packet_broker)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    uplinkID, r.gatewayID, r.gatewayEUI, r.rssi, r.channelRSSI, r.signalRSSI, r.snr,
                    r.time?.nanosecondsSinceEpoch, r.concentratorTimestamp.map { Int64($0) }, r.channelIndex,
                    r.antennaIndex, r.location?.latitude, r.location?.longitude, r.location?.altitude,
                    r.viaPacketBroker,
                ])
        }
        return uplinkID
    }

    public func uplink(_ id: Int64) throws -> Uplink? {
        try read { db in try Self.uplink(id, db) }
    }

    static func uplink(_ id: Int64, _ db: Database) throws -> Uplink? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM uplinks WHERE id = ?", arguments: [id]) else {
            return nil
        }
        let receptions = try Row.fetchAll(
            db, sql: "SELECT * FROM receptions WHERE uplink_id = ? ORDER BY id", arguments: [id]
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
        }
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
