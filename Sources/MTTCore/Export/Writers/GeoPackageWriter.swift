import FoundationEssentials
import GRDB

extension ExportFormat {
    public static let gpkg = ExportFormat(
        name: "gpkg",
        help: "a GeoPackage for QGIS: samples, unheard attempts, trackers' estimated unheard frames, tracks (yours and each tracker's), gateways, cells (all gateways and per gateway), reach; needs --out",
        writer: GeoPackageWriter())
}

/// The whole coverage as one GeoPackage (EPSG:4326, an R-tree per layer): QGIS opens it with no
/// import step. Layers: `samples`, `unheard_attempts`, `estimated_attempts`, `tracks`, `device_tracks`, `gateways`, `cells`,
/// `gateway_cells` (TTN Mapper's grid rows: one gateway antenna in one cell) and `reach`.
/// Returns the number of samples and unheard attempts, as the other formats count records.
struct GeoPackageWriter: ExportWriter {
    struct NeedsFile: Error, CustomStringConvertible {
        var description: String { "a GeoPackage is a database file, not a stream: give --out FILE.gpkg" }
    }

    func write(_ store: Store, filter: ExportFilter, to sink: TextSink) throws -> Int {
        guard let path = sink.unfinishedPath else { throw NeedsFile() }
        var records = 0
        try GeoPackageFile.create(at: path) { file in records = try fill(file, store, filter) }
        return records
    }

    var needsFile: Bool { true }

    private func fill(_ file: GeoPackageFile, _ store: Store, _ filter: ExportFilter) throws -> Int {
        typealias C = GeoPackageFile.Column
        let bucketColumns = SignalBucket.allCases.map { C(name: "bucket_\($0.name)", type: "INTEGER") }

        try file.addLayer("samples", .point, columns: [
            C(name: "time", type: "DATETIME"), C(name: "session", type: "INTEGER"), C(name: "mode", type: "TEXT"),
            C(name: "device", type: "TEXT"), C(name: "dev_eui", type: "TEXT"), C(name: "f_cnt", type: "INTEGER"), C(name: "sf", type: "INTEGER"),
            C(name: "frequency", type: "INTEGER"), C(name: "method", type: "TEXT"), C(name: "gateways", type: "INTEGER"),
            C(name: "best_gateway", type: "TEXT"), C(name: "rssi", type: "REAL"), C(name: "snr", type: "REAL"), C(name: "color", type: "TEXT"),
        ], description: "Uplinks the network heard, where you were")
        try file.addLayer("unheard_attempts", .point, columns: [
            C(name: "time", type: "DATETIME"), C(name: "session", type: "INTEGER"), C(name: "status", type: "TEXT"),
            C(name: "node", type: "TEXT"), C(name: "dev_eui", type: "TEXT"), C(name: "f_cnt", type: "INTEGER"), C(name: "sf", type: "INTEGER"),
        ], description: "Transmissions no gateway's uplink shows: lost (nobody heard), failed (the node could not send) or heard-linkcheck (only the modem's link check says heard)")
        var records = 0
        try store.records.forEachExportRecord(filter) { r in
            records += 1
            let place = GeoPackageGeometry.point(GeoPoint(latitude: r.latitude, longitude: r.longitude))
            let time = RFC3339.string(r.time, fractionDigits: 3)
            if r.status == .heard {
                try file.insert(into: "samples", place, [
                    time, r.session, r.mode, r.device, r.devEUI, r.fCnt, r.spreadingFactor, r.frequency.map { Int64($0) }, r.method,
                    r.gateways, r.bestGateway, r.rssi, r.snr, SignalBand(r).hexColor,
                ])
            } else {
                try file.insert(into: "unheard_attempts", place, [time, r.session, r.status.rawValue, r.device, r.devEUI, r.fCnt, r.spreadingFactor])
            }
        }

        // Apart from the measured ones: a tracker's frames nobody heard, known only from the gaps
        // in its frame counters (the placed ones: a layer is drawn).
        try file.addLayer("estimated_attempts", .point, columns: [
            C(name: "time", type: "DATETIME"), C(name: "session", type: "INTEGER"), C(name: "device", type: "TEXT"),
            C(name: "dev_eui", type: "TEXT"), C(name: "f_cnt", type: "INTEGER"), C(name: "sf", type: "INTEGER"),
        ], description: "Frames trackers sent that nobody heard, estimated from the gaps in their frame counters: time and place interpolated")
        try store.records.forEachEstimatedAttempt(filter) { e in
            guard let position = e.position else { return }
            try file.insert(into: "estimated_attempts", .point(position), [
                RFC3339.string(e.sentAt, fractionDigits: 3), e.sessionID, e.deviceID, e.devEUI, Int64(e.fCnt), e.spreadingFactor,
            ])
        }

        try file.addLayer("tracks", .lineString, columns: [C(name: "session", type: "INTEGER"), C(name: "start", type: "DATETIME"), C(name: "end", type: "DATETIME")],
                          description: "Each session's GPS track")
        var track: (session: Int64, fixes: [Fix])?
        func writeTrack() throws {
            guard let t = track, t.fixes.count > 1, let first = t.fixes.first, let last = t.fixes.last else { return }
            try file.insert(into: "tracks", .lineString(t.fixes.map(\.point)), [
                t.session, RFC3339.string(first.time, fractionDigits: 3), RFC3339.string(last.time, fractionDigits: 3),
            ])
        }
        try store.records.forEachTrackFix(filter) { session, fix in
            if track?.session != session {
                try writeTrack()
                track = (session, [])
            }
            track?.fixes.append(fix)
        }
        try writeTrack()

        // A tracker's own track: the positions it sent, one line per session of its own.
        try file.addLayer("device_tracks", .lineString, columns: [
            C(name: "device", type: "TEXT"), C(name: "dev_eui", type: "TEXT"), C(name: "number", type: "INTEGER"),
            C(name: "start", type: "DATETIME"), C(name: "end", type: "DATETIME"), C(name: "uplinks", type: "INTEGER"),
            C(name: "estimated_attempts", type: "INTEGER"),
        ], description: "Each tracker's sessions, through the positions it sent itself")
        try store.records.forEachDeviceSession(of: filter.session, splitter: DeviceSessionSplitter(keepsTracks: true)) { trip in
            guard trip.track.count > 1 else { return }
            try file.insert(into: "device_tracks", .lineString(trip.track), [
                trip.device, trip.devEUI, trip.number, RFC3339.string(trip.start, fractionDigits: 3), RFC3339.string(trip.end, fractionDigits: 3),
                trip.uplinks, trip.estimatedAttempts,
            ])
        }

        let coverage = CoverageFilter(window: filter)
        try file.addLayer("gateways", .point, columns: [
            C(name: "gateway", type: "TEXT"), C(name: "network", type: "TEXT"), C(name: "antenna", type: "INTEGER"),
            C(name: "estimated", type: "BOOLEAN"), C(name: "cells", type: "INTEGER"), C(name: "receptions", type: "INTEGER"),
            C(name: "best", type: "REAL"), C(name: "first_heard", type: "DATETIME"), C(name: "last_heard", type: "DATETIME"),
            C(name: "farthest_m", type: "REAL"), C(name: "position_check", type: "TEXT"),
        ], description: "Gateways that heard you; estimated = placed by mtt from its strongest receptions; position_check = what its receptions say when they contradict the position it reports")
        // Read once for the gateways' position checks and the predicted layer.
        let antennas = try store.coverage.predictionData(coverage)
        let suspect = GatewayPositionCheck.contradicted(antennas)
        for g in try store.coverage.coverageGateways(coverage) {
            guard let position = g.position else { continue }
            try file.insert(into: "gateways", .point(position), [
                g.gateway, g.network, g.antenna, g.estimated, g.cells, g.receptions, g.best,
                RFC3339.string(g.firstHeard, fractionDigits: 3), RFC3339.string(g.lastHeard, fractionDigits: 3), g.farthest?.metres, suspect[g.gateway],
            ])
        }

        try file.addLayer("cells", .polygon, columns: [
            C(name: "x", type: "INTEGER"), C(name: "y", type: "INTEGER"), C(name: "state", type: "TEXT"), C(name: "receptions", type: "INTEGER"),
        ] + bucketColumns + [
            C(name: "bucket", type: "TEXT"), C(name: "best", type: "REAL"), C(name: "gateways", type: "INTEGER"), C(name: "attempts", type: "INTEGER"),
            C(name: "heard_attempts", type: "INTEGER"), C(name: "estimated_attempts", type: "INTEGER"),
            C(name: "linkcheck_checked", type: "INTEGER"), C(name: "linkcheck_answered", type: "INTEGER"), C(name: "linkcheck_gateways", type: "INTEGER"),
            C(name: "linkcheck_margin", type: "INTEGER"),
            C(name: "first", type: "DATETIME"), C(name: "last", type: "DATETIME"), C(name: "color", type: "TEXT"),
        ], description: "Zoom-19 cells, all gateways: heard, not-heard (you sent, nobody heard), not-heard-estimated (only a tracker's estimated frames), heard-linkcheck (only a link check answered) or unknown")
        for cell in try store.coverage.coverageCells(coverage) {
            try file.insert(into: "cells", .polygon([cell.tile.ring]), [cell.tile.x, cell.tile.y, cell.state.rawValue, cell.receptions]
                + cell.buckets.map { $0 as (any DatabaseValueConvertible)? } + [
                    cell.commonest?.name, cell.best, cell.gateways, cell.attempts, cell.heardAttempts, cell.estimatedAttempts,
                    cell.linkChecks?.checked ?? 0, cell.linkChecks?.answered ?? 0, cell.linkChecks?.gateways, cell.linkChecks?.margin,
                    RFC3339.string(cell.firstAt, fractionDigits: 3), RFC3339.string(cell.lastAt, fractionDigits: 3), CoverageLayer.color(cell),
                ])
        }

        try file.addLayer("gateway_cells", .polygon, columns: [
            C(name: "x", type: "INTEGER"), C(name: "y", type: "INTEGER"), C(name: "gateway", type: "TEXT"), C(name: "network", type: "TEXT"),
            C(name: "antenna", type: "INTEGER"),
        ] + bucketColumns + [C(name: "best", type: "REAL"), C(name: "first", type: "DATETIME"), C(name: "last", type: "DATETIME")],
                          description: "Zoom-19 cells per gateway antenna, counts per TTN Mapper bucket")
        try store.coverage.forEachGatewayCell(coverage) { cell in
            try file.insert(into: "gateway_cells", .polygon([cell.tile.ring]), [cell.tile.x, cell.tile.y, cell.gateway, cell.network, cell.antenna]
                + cell.buckets.map { $0 as (any DatabaseValueConvertible)? } + [
                    cell.best, RFC3339.string(cell.firstAt, fractionDigits: 3), RFC3339.string(cell.lastAt, fractionDigits: 3),
                ])
        }

        try file.addLayer("reach", .polygon, columns: [
            C(name: "gateway", type: "TEXT"), C(name: "network", type: "TEXT"), C(name: "antenna", type: "INTEGER"), C(name: "level", type: "TEXT"),
            C(name: "threshold", type: "REAL"), C(name: "color", type: "TEXT"),
        ], description: "How far each gateway antenna heard you, per signal level, on 360 bearings")
        for reach in try store.coverage.reach() {
            for level in ReachLevel.allCases where reach.reaches(level) {
                try file.insert(into: "reach", .polygon([reach.polygon(level)]), [
                    reach.gateway, reach.network, reach.antenna, level.name, level.threshold, CoverageLayer.color(level),
                ])
            }
        }

        // Apart from every measured layer: what nobody measured, predicted (mtt coverage predict).
        try file.addLayer("predicted", .polygon, columns: [
            C(name: "x", type: "INTEGER"), C(name: "y", type: "INTEGER"), C(name: "p_heard_any", type: "REAL"), C(name: "gateway", type: "TEXT"),
            C(name: "network", type: "TEXT"), C(name: "antenna", type: "INTEGER"), C(name: "signal", type: "REAL"), C(name: "low", type: "REAL"),
            C(name: "high", type: "REAL"), C(name: "p_heard", type: "REAL"), C(name: "color", type: "TEXT"),
        ], description: "Zoom-17 tiles nobody measured, within a gateway's reach: the predicted signal of the antenna most likely to hear (RSSI + min(SNR, 0), its 80 % interval) and the chance anyone hears. A prediction, never a measurement.")
        for p in try CoverageLayer.predictedTiles(store, coverage, antennas) {
            let s = p.best.prediction
            try file.insert(into: "predicted", .polygon([p.tile.ring]), [
                p.tile.x, p.tile.y, p.pHeardAny, p.best.key.gateway, p.best.key.network, p.best.key.antenna, s?.signal, s?.low, s?.high, s?.pHeard,
                s.map { SignalBucket(signal: $0.signal).band.hexColor },
            ])
        }

        try file.addLayer("moved_cells", .polygon, columns: [
            C(name: "x", type: "INTEGER"), C(name: "y", type: "INTEGER"), C(name: "gateway", type: "TEXT"), C(name: "network", type: "TEXT"),
            C(name: "antenna", type: "INTEGER"), C(name: "moved_at", type: "DATETIME"),
        ] + bucketColumns + [C(name: "best", type: "REAL"), C(name: "first", type: "DATETIME"), C(name: "last", type: "DATETIME")],
                          description: "History: zoom-19 cells of the places gateways moved more than 100 m from, per gateway antenna and move; in no other layer")
        try store.coverage.forEachMovedCell(coverage) { cell in
            try file.insert(into: "moved_cells", .polygon([cell.tile.ring]), [
                cell.tile.x, cell.tile.y, cell.gateway, cell.network, cell.antenna, cell.movedAt.map { RFC3339.string($0, fractionDigits: 3) },
            ] + cell.buckets.map { $0 as (any DatabaseValueConvertible)? } + [
                cell.best, RFC3339.string(cell.firstAt, fractionDigits: 3), RFC3339.string(cell.lastAt, fractionDigits: 3),
            ])
        }
        return records
    }
}
