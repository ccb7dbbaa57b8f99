import GRDB

/// The `uplinks` table's columns, named once for every read of a heard uplink.
enum UplinkColumns: String, ColumnExpression {
    case id
    case deviceID = "device_id"
    case applicationID = "application_id"
    case devEUI = "dev_eui"
    case devAddr = "dev_addr"
    case fPort = "f_port"
    case fCnt = "f_cnt"
    case frequency
    case spreadingFactor = "spreading_factor"
    case bandwidth
    case codingRate = "coding_rate"
    case receivedAt = "received_at"
    case airtime
    case payload
    case networkID = "network_id"
}
