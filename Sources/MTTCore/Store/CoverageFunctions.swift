import GRDB

/// The coverage rules as SQL functions, so the triggers and the rebuild compute cells, buckets,
/// distances and what is left out with the same Swift code as everything else (`MapTile`,
/// `SignalBucket`, `ReachLevel`, `CoverageRules`). Every connection mtt opens has them.
enum CoverageFunctions {
    static func register(in db: Database) {
        db.add(function: DatabaseFunction("mtt_tile_x", argumentCount: 1, pure: true) { values in
            Double.fromDatabaseValue(values[0]).map { MapTile.x(longitude: $0) }
        })
        db.add(function: DatabaseFunction("mtt_tile_y", argumentCount: 1, pure: true) { values in
            Double.fromDatabaseValue(values[0]).map { MapTile.y(latitude: $0) }
        })
        db.add(function: DatabaseFunction("mtt_bucket", argumentCount: 1, pure: true) { values in
            Double.fromDatabaseValue(values[0]).map { SignalBucket(signal: $0).rawValue }
        })
        db.add(function: DatabaseFunction("mtt_reach_level", argumentCount: 1, pure: true) { values in
            Double.fromDatabaseValue(values[0]).map { ReachLevel(signal: $0).rawValue }
        })
        db.add(function: DatabaseFunction("mtt_distance", argumentCount: 4, pure: true) { values in
            points(values).map { $0.distance(to: $1) }
        })
        // Whole degrees, as TTN Mapper's 360 beams.
        db.add(function: DatabaseFunction("mtt_bearing", argumentCount: 4, pure: true) { values in
            points(values).map { Int($0.bearing(to: $1).rounded(.down)) }
        })
        db.add(function: DatabaseFunction("mtt_position_counts", argumentCount: 2, pure: true) { values in
            point(values[0], values[1]).map(CoverageRules.counts) ?? false
        })
        // (sample lat, lon, rssi, gateway lat, lon): why the reception is left out, or NULL.
        db.add(function: DatabaseFunction("mtt_left_out", argumentCount: 5, pure: true) { values in
            guard let sample = point(values[0], values[1]) else { return CoverageRules.LeftOut.position.rawValue }
            return CoverageRules.leftOut(sample: sample, rssi: Double.fromDatabaseValue(values[2]), gateway: point(values[3], values[4]))?.rawValue
        })
    }

    private static func point(_ lat: DatabaseValue, _ lon: DatabaseValue) -> GeoPoint? {
        guard let latitude = Double.fromDatabaseValue(lat), let longitude = Double.fromDatabaseValue(lon) else { return nil }
        return GeoPoint(latitude: latitude, longitude: longitude)
    }

    private static func points(_ values: [DatabaseValue]) -> (GeoPoint, GeoPoint)? {
        guard let a = point(values[0], values[1]), let b = point(values[2], values[3]) else { return nil }
        return (a, b)
    }
}
