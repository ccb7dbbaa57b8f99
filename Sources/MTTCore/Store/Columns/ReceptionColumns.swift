import GRDB

/// The `receptions` table's columns, named once for every read of a gateway's reception.
enum ReceptionColumns: String, ColumnExpression {
    case gatewayID = "gateway_id"
    case antennaIndex = "antenna_index"
    case lat
    case lon
    case rssi
    case snr
    case gatewayEUI = "gateway_eui"
    case channelRSSI = "channel_rssi"
    case signalRSSI = "signal_rssi"
    case time
    case concentratorTimestamp = "concentrator_timestamp"
    case channelIndex = "channel_index"
    case alt
    case packetBroker = "packet_broker"
}
