import FoundationEssentials
import GRDB

/// A GeoPackage 1.3 being written (OGC 12-128r18): an SQLite file with GeoPackage's application id
/// and version, its three required spatial reference systems, and feature tables each registered in
/// `gpkg_contents` and `gpkg_geometry_columns` with an R-tree spatial index, so QGIS and GDAL open it
/// with no import step. Written by GRDB over SQLite, in one transaction (`create`).
final class GeoPackageFile {
    static let applicationID: Int32 = 0x4750_4B47  // "GPKG"
    static let userVersion = 10300
    static let wgs84: Int32 = 4326

    /// A feature table's column: its name and SQLite type.
    struct Column {
        var name: String
        var type: String
    }

    enum GeometryType: String {
        case point = "POINT", lineString = "LINESTRING", polygon = "POLYGON"
    }

    private let db: Database
    /// Each layer's statements: its row, its R-tree entry.
    private var inserts: [String: (feature: Statement, index: Statement)] = [:]
    /// Each table's extent, for `gpkg_contents`.
    private var extents: [String: (minX: Double, maxX: Double, minY: Double, maxY: Double)] = [:]

    private init(_ db: Database) {
        self.db = db
    }

    /// Makes `path` (an empty file or none) a GeoPackage, gives `body` its layers to fill, and
    /// commits it all at once.
    static func create(at path: String, _ body: (GeoPackageFile) throws -> Void) throws {
        var config = Configuration()
        // Written once into a file that takes its name only when complete: no journal needed.
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF") }
        let queue = try DatabaseQueue(path: path, configuration: config)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA application_id = \(applicationID); PRAGMA user_version = \(userVersion)")
            try db.inTransaction {
                try createTables(db)
                let file = GeoPackageFile(db)
                try body(file)
                try file.finish()
                return .commit
            }
        }
        try queue.close()
    }

    private static func createTables(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE gpkg_spatial_ref_sys (
                srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY, organization TEXT NOT NULL,
                organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT);
            CREATE TABLE gpkg_contents (
                table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE, description TEXT DEFAULT '',
                last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
                min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER,
                CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
            CREATE TABLE gpkg_geometry_columns (
                table_name TEXT NOT NULL, column_name TEXT NOT NULL, geometry_type_name TEXT NOT NULL, srs_id INTEGER NOT NULL,
                z TINYINT NOT NULL, m TINYINT NOT NULL,
                CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name), CONSTRAINT uk_gc_table_name UNIQUE (table_name),
                CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),
                CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));
            CREATE TABLE gpkg_extensions (
                table_name TEXT, column_name TEXT, extension_name TEXT NOT NULL, definition TEXT NOT NULL, scope TEXT NOT NULL,
                CONSTRAINT ge_tce UNIQUE (table_name, column_name, extension_name));
            """)
        try db.execute(
            sql: "INSERT INTO gpkg_spatial_ref_sys VALUES (?, ?, ?, ?, ?, ?)",
            arguments: ["WGS 84 geodetic", wgs84, "EPSG", 4326, wgs84Definition, "longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid"])
        try db.execute(sql: "INSERT INTO gpkg_spatial_ref_sys VALUES ('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', 'undefined cartesian coordinate reference system')")
        try db.execute(sql: "INSERT INTO gpkg_spatial_ref_sys VALUES ('Undefined geographic SRS', 0, 'NONE', 0, 'undefined', 'undefined geographic coordinate reference system')")
    }

    /// Adds a feature table `name` with a `geom` column and `columns`, registered and indexed.
    func addLayer(_ name: String, _ geometry: GeometryType, columns: [Column], description: String) throws {
        try db.execute(sql: """
            CREATE TABLE "\(name)" (fid INTEGER PRIMARY KEY AUTOINCREMENT, geom \(geometry.rawValue)\(columns.map { ", \"\($0.name)\" \($0.type)" }.joined()))
            """)
        try db.execute(
            sql: "INSERT INTO gpkg_contents (table_name, data_type, identifier, description, srs_id) VALUES (?, 'features', ?, ?, ?)",
            arguments: [name, name, description, Self.wgs84])
        try db.execute(sql: "INSERT INTO gpkg_geometry_columns VALUES (?, 'geom', ?, ?, 0, 0)", arguments: [name, geometry.rawValue, Self.wgs84])
        try db.execute(sql: "CREATE VIRTUAL TABLE \"rtree_\(name)_geom\" USING rtree(id, minx, maxx, miny, maxy)")
        try db.execute(
            sql: "INSERT INTO gpkg_extensions VALUES (?, 'geom', 'gpkg_rtree_index', 'http://www.geopackage.org/spec120/#extension_rtree', 'write-only')",
            arguments: [name])
        // Compiled once per layer: a million features are each one row and one R-tree entry.
        let placeholders = Array(repeating: "?", count: columns.count + 1).joined(separator: ", ")
        inserts[name] = (try db.makeStatement(sql: "INSERT INTO \"\(name)\" VALUES (NULL, \(placeholders))"),
                         try db.makeStatement(sql: "INSERT INTO \"rtree_\(name)_geom\" VALUES (?, ?, ?, ?, ?)"))
    }

    /// Adds one feature: its geometry (in the R-tree too) and `values` in the layer's column order.
    func insert(into layer: String, _ geometry: GeoPackageGeometry, _ values: [(any DatabaseValueConvertible)?]) throws {
        guard let (feature, index) = inserts[layer] else { preconditionFailure("no layer \(layer)") }
        try feature.execute(arguments: StatementArguments([geometry.blob(srsID: Self.wgs84)] + values))
        let e = geometry.envelope
        try index.execute(arguments: [db.lastInsertedRowID, e.minX, e.maxX, e.minY, e.maxY])
        let extent = extents[layer] ?? e
        extents[layer] = (min(extent.minX, e.minX), max(extent.maxX, e.maxX), min(extent.minY, e.minY), max(extent.maxY, e.maxY))
    }

    /// Writes the extents and adds the R-tree triggers that keep the index for later editors (QGIS).
    private func finish() throws {
        let tables = try String.fetchAll(db, sql: "SELECT table_name FROM gpkg_contents ORDER BY table_name")
        for table in tables {
            if let e = extents[table] {
                try db.execute(
                    sql: "UPDATE gpkg_contents SET min_x = ?, min_y = ?, max_x = ?, max_y = ? WHERE table_name = ?",
                    arguments: [e.minX, e.minY, e.maxX, e.maxY, table])
            }
            try db.execute(sql: Self.rtreeTriggers(table))
        }
    }

    /// The R-tree extension's triggers (GeoPackage 1.3, F.3): they call the ST_ functions a
    /// GeoPackage reader (GDAL, QGIS) provides, so mtt adds them once its own inserts are done.
    private static func rtreeTriggers(_ t: String) -> String {
        let r = "\"rtree_\(t)_geom\"", table = "\"\(t)\""
        let bounds = "NEW.fid, ST_MinX(NEW.geom), ST_MaxX(NEW.geom), ST_MinY(NEW.geom), ST_MaxY(NEW.geom)"
        return """
            CREATE TRIGGER "rtree_\(t)_geom_insert" AFTER INSERT ON \(table) WHEN (new.geom NOT NULL AND NOT ST_IsEmpty(NEW.geom))
            BEGIN INSERT OR REPLACE INTO \(r) VALUES (\(bounds)); END;
            CREATE TRIGGER "rtree_\(t)_geom_update1" AFTER UPDATE OF geom ON \(table)
            WHEN OLD.fid = NEW.fid AND (NEW.geom NOTNULL AND NOT ST_IsEmpty(NEW.geom))
            BEGIN INSERT OR REPLACE INTO \(r) VALUES (\(bounds)); END;
            CREATE TRIGGER "rtree_\(t)_geom_update2" AFTER UPDATE OF geom ON \(table)
            WHEN OLD.fid = NEW.fid AND (NEW.geom ISNULL OR ST_IsEmpty(NEW.geom))
            BEGIN DELETE FROM \(r) WHERE id = OLD.fid; END;
            CREATE TRIGGER "rtree_\(t)_geom_update3" AFTER UPDATE ON \(table)
            WHEN OLD.fid != NEW.fid AND (NEW.geom NOTNULL AND NOT ST_IsEmpty(NEW.geom))
            BEGIN DELETE FROM \(r) WHERE id = OLD.fid; INSERT OR REPLACE INTO \(r) VALUES (\(bounds)); END;
            CREATE TRIGGER "rtree_\(t)_geom_update4" AFTER UPDATE ON \(table)
            WHEN OLD.fid != NEW.fid AND (NEW.geom ISNULL OR ST_IsEmpty(NEW.geom))
            BEGIN DELETE FROM \(r) WHERE id IN (OLD.fid, NEW.fid); END;
            CREATE TRIGGER "rtree_\(t)_geom_delete" AFTER DELETE ON \(table) WHEN old.geom NOT NULL
            BEGIN DELETE FROM \(r) WHERE id = OLD.fid; END;
            """
    }

    /// EPSG:4326 in OGC WKT, as GeoPackage's own definition of the row.
    static let wgs84Definition = """
        GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],\
        PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AUTHORITY["EPSG","4326"]]
        """
}
