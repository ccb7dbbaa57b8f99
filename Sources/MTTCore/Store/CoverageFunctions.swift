import GRDB
import GRDBSQLite

/// The coverage rules as SQL functions, so the attempts' triggers and the rebuild compute cells, buckets,
/// distances and what is left out with the same Swift code as everything else (`MapTile`,
/// `SignalBucket`, `ReachLevel`, `CoverageRules`). Every connection mtt opens has them.
///
/// Registered with SQLite's own C interface rather than GRDB's `DatabaseFunction`: when a trigger
/// per sample called them some forty times, GRDB's wrapper (an array of values per call) made
/// storing a placed sample about four times as slow as without coverage (Benchmarks: "store 10,000
/// placed samples"), and a rebuild calls them for every reception.
enum CoverageFunctions {
    private typealias Body = @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void

    static func register(in db: Database) {
        let connection = db.sqliteConnection
        func add(_ name: String, _ arguments: Int32, _ body: Body) {
            sqlite3_create_function_v2(connection, name, arguments, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, body, nil, nil, nil)
        }
        add("mtt_tile_x", 1) { context, _, values in
            guard let x = double(values, 0) else { return sqlite3_result_null(context) }
            sqlite3_result_int64(context, Int64(MapTile.x(longitude: x)))
        }
        add("mtt_tile_y", 1) { context, _, values in
            guard let y = double(values, 0) else { return sqlite3_result_null(context) }
            sqlite3_result_int64(context, Int64(MapTile.y(latitude: y)))
        }
        add("mtt_bucket", 1) { context, _, values in
            guard let s = double(values, 0) else { return sqlite3_result_null(context) }
            sqlite3_result_int64(context, Int64(SignalBucket(signal: s).rawValue))
        }
        add("mtt_reach_level", 1) { context, _, values in
            guard let s = double(values, 0) else { return sqlite3_result_null(context) }
            sqlite3_result_int64(context, Int64(ReachLevel(signal: s).rawValue))
        }
        add("mtt_distance", 4) { context, _, values in
            guard let a = point(values, 0), let b = point(values, 2) else { return sqlite3_result_null(context) }
            sqlite3_result_double(context, a.distance(to: b))
        }
        // Whole degrees, as TTN Mapper's 360 beams.
        add("mtt_bearing", 4) { context, _, values in
            guard let a = point(values, 0), let b = point(values, 2) else { return sqlite3_result_null(context) }
            sqlite3_result_int64(context, Int64(a.bearing(to: b).rounded(.down)))
        }
        add("mtt_position_counts", 2) { context, _, values in
            sqlite3_result_int64(context, point(values, 0).map(CoverageRules.counts) == true ? 1 : 0)
        }
        // (sample lat, lon, rssi, gateway lat, lon): why the reception is left out, or NULL.
        add("mtt_left_out", 5) { context, _, values in
            let reason: CoverageRules.LeftOut?
            if let sample = point(values, 0) {
                reason = CoverageRules.leftOut(sample: sample, rssi: double(values, 2), gateway: point(values, 3))
            } else {
                reason = .position
            }
            guard let reason else { return sqlite3_result_null(context) }
            // Rare (a reception left out), so SQLite's own copy of the text costs nothing that counts.
            sqlite3_result_text(context, reason.rawValue, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
    }
}

// The arguments SQLite passes, read as the rules want them (free functions: a C callback captures nothing).
private func double(_ values: UnsafeMutablePointer<OpaquePointer?>?, _ index: Int) -> Double? {
    guard let value = values?[index], sqlite3_value_type(value) != SQLITE_NULL else { return nil }
    return sqlite3_value_double(value)
}

private func point(_ values: UnsafeMutablePointer<OpaquePointer?>?, _ index: Int) -> GeoPoint? {
    guard let latitude = double(values, index), let longitude = double(values, index + 1) else { return nil }
    return GeoPoint(latitude: latitude, longitude: longitude)
}
