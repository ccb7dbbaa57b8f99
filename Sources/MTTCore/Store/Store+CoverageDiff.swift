import GRDB

extension StoreCoverage {
    /// The cells heard since `since` (up to `until`) against those heard before it
    /// (`CoverageDiff`), read from the aggregates, zoom-19 cells.
    public func coverageDiff(since: Timestamp, until: Timestamp? = nil, gateway: String? = nil) throws -> CoverageDiff {
        try read { db in
            let after = "c.last_at >= \(since.nanosecondsSinceEpoch) AND c.first_at <= \(until?.nanosecondsSinceEpoch ?? Int64.max)"
            let before = "c.first_at < \(since.nanosecondsSinceEpoch)"
            let tried = "a.last_at >= \(since.nanosecondsSinceEpoch) AND a.first_at <= \(until?.nanosecondsSinceEpoch ?? Int64.max) AND \(CoverageSQL.networkKnown)"
            let only = gateway == nil ? "" : " AND c.gateway = ?"
            // The gateway once for each `only` in the statement.
            func named(_ times: Int) -> StatementArguments { StatementArguments(Array(repeating: gateway, count: gateway == nil ? 0 : times)) }
            let sets = """
                WITH heard_after AS (SELECT DISTINCT x, y FROM coverage_cells c WHERE \(after)\(only)),
                     heard_before AS (SELECT DISTINCT x, y FROM coverage_cells c WHERE \(before)\(only)),
                     mapped_after AS (SELECT x, y FROM heard_after UNION SELECT x, y FROM coverage_attempts a WHERE \(tried))
                """
            func tiles(_ select: String, _ arguments: StatementArguments) throws -> [MapTile] {
                try Row.fetchAll(db, sql: sets + select, arguments: arguments).map {
                    MapTile(zoom: MapTile.cellZoom, x: $0[CoverageQueryColumns.x], y: $0[CoverageQueryColumns.y])
                }
            }
            let newly = try tiles(" SELECT x, y FROM heard_after EXCEPT SELECT x, y FROM heard_before ORDER BY y, x", named(2))
            let lost = try tiles(" SELECT x, y FROM heard_before INTERSECT SELECT x, y FROM mapped_after EXCEPT SELECT x, y FROM heard_after ORDER BY y, x", named(2))
            let still = try Int.fetchOne(db, sql: sets + " SELECT COUNT(*) FROM (SELECT x, y FROM heard_after INTERSECT SELECT x, y FROM heard_before)", arguments: named(2)) ?? 0
            var by: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: sets + """
                 SELECT c.gateway AS gateway, COUNT(DISTINCT c.x * 1048576 + c.y) AS n FROM coverage_cells c
                 WHERE \(after)\(only) AND (c.x, c.y) NOT IN heard_before GROUP BY c.gateway
                """, arguments: named(3)) {
                by[row[CoverageQueryColumns.gateway]] = row[CoverageQueryColumns.n]
            }
            return CoverageDiff(since: since, until: until, newlyHeard: newly, lost: lost, stillHeard: still, newlyHeardBy: by)
        }
    }
}
