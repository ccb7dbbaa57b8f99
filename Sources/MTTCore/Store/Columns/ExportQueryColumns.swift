import GRDB

/// The names the export query gives its columns, a record of either kind a row.
enum ExportQueryColumns: String, ColumnExpression {
    case alt
    case attemptID = "attempt_id"
    case devEUI = "dev_eui"
    case device
    case fCnt = "f_cnt"
    case fieldTest = "field_test"
    case frequency
    case lat
    case linkCheckGateways = "linkcheck_gateways"
    case linkCheckMargin = "linkcheck_margin"
    case lon
    case method
    case mode
    case sampleID = "sample_id"
    case session
    case sessionID = "session_id"
    case sf
    case status
    case time
    case uplinkID = "uplink_id"
}
