import GRDB

/// The `fixes` table's columns, named once for every read of a track point.
enum FixColumns: String, ColumnExpression {
    case time
    case lat
    case lon
    case altHAE = "alt_hae"
    case altMSL = "alt_msl"
    case eph
    case epv
    case hdop
    case satellites
    case speed
    case track
    case mode
    case source
}
