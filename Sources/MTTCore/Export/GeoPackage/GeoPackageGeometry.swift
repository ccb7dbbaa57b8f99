import FoundationEssentials

/// A geometry as a GeoPackage stores it (OGC 12-128r18 § 2.1.3): the "GP" header with its SRS and
/// envelope, then the geometry as little-endian WKB. Longitude is x, latitude y.
enum GeoPackageGeometry {
    case point(GeoPoint)
    case lineString([GeoPoint])
    case polygon([[GeoPoint]])

    /// x then y of every point, for the envelope.
    private var points: [GeoPoint] {
        switch self {
        case .point(let p): [p]
        case .lineString(let line): line
        case .polygon(let rings): rings.flatMap { $0 }
        }
    }

    /// (min x, max x, min y, max y): what the header's envelope and the R-tree hold.
    var envelope: (minX: Double, maxX: Double, minY: Double, maxY: Double) {
        let p = points
        return (p.map(\.longitude).min() ?? 0, p.map(\.longitude).max() ?? 0, p.map(\.latitude).min() ?? 0, p.map(\.latitude).max() ?? 0)
    }

    func blob(srsID: Int32) -> Data {
        var out = Data()
        out.reserveCapacity(64 + points.count * 16)
        out.append(contentsOf: [0x47, 0x50, 0])  // "GP", version 1 (0)
        // Little-endian; a point needs no envelope (it is its own), anything else carries [minx, maxx, miny, maxy].
        var flags: UInt8 = 0b0000_0001
        if case .point = self {} else { flags |= 0b0000_0010 }
        out.append(flags)
        append(UInt32(bitPattern: srsID), to: &out)
        if flags & 0b10 != 0 {
            let e = envelope
            for v in [e.minX, e.maxX, e.minY, e.maxY] { append(v, to: &out) }
        }
        // WKB: byte order 1 (little-endian), type, then the coordinates.
        out.append(1)
        switch self {
        case .point(let p):
            append(UInt32(1), to: &out)
            append(p, to: &out)
        case .lineString(let line):
            append(UInt32(2), to: &out)
            append(UInt32(line.count), to: &out)
            for p in line { append(p, to: &out) }
        case .polygon(let rings):
            append(UInt32(3), to: &out)
            append(UInt32(rings.count), to: &out)
            for ring in rings {
                append(UInt32(ring.count), to: &out)
                for p in ring { append(p, to: &out) }
            }
        }
        return out
    }

    private func append(_ p: GeoPoint, to out: inout Data) {
        append(p.longitude, to: &out)
        append(p.latitude, to: &out)
    }

    private func append(_ v: UInt32, to out: inout Data) {
        withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) }
    }

    private func append(_ v: Double, to out: inout Data) {
        withUnsafeBytes(of: v.bitPattern.littleEndian) { out.append(contentsOf: $0) }
    }
}
