import GRDB

/// The names the prediction's reads give their columns.
enum PredictionQueryColumns: String, ColumnExpression {
    case uplink
    case lat
    case lon
    case network
    case sf
    case gateway
    case eui
    case antenna
    case signal
    case complete
    case leftOut = "left_out"
    case time
}
