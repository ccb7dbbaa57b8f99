/// The export formats: GPX 1.1 for GPS tools, GeoJSON for QGIS, CSV for spreadsheets, KML 2.2 for
/// Google Earth (placemarks coloured by TTN Mapper's signal bands, lost and failed attempts black).
public enum ExportFormat: String, Sendable, CaseIterable {
    case gpx, geojson, csv, kml

    /// The writer of this format.
    public var writer: any ExportWriter {
        switch self {
        case .gpx: GPXWriter()
        case .geojson: GeoJSONWriter()
        case .csv: CSVWriter()
        case .kml: KMLWriter()
        }
    }
}
