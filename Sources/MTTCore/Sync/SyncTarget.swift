/// A map service that mtt uploads to. Each keeps its own per-record sync state in the store,
/// so a record reaches each target exactly once.
public enum SyncTarget: String, Sendable, Hashable, Codable, CaseIterable {
    case mapthethings
    case ttnmapper

    /// The kinds of record a target takes, in upload order, each with the SQL that selects every id
    /// the target takes of that kind. The queue is these minus the ones in `sync_state`. Imported data
    /// sets came from these maps and are never sent back.
    var queues: [(kind: SyncRecordKind, candidates: String)] {
        switch self {
        case .mapthethings:
            return [
                (.attempt, """
                    SELECT attempts.id FROM attempts JOIN sessions ON sessions.id = attempts.session_id
                    WHERE attempts.state = 'confirmed' AND attempts.fix_id IS NOT NULL AND sessions.mode != 'imported'
                    """),
                (.sample, """
                    SELECT samples.id FROM samples JOIN sessions ON sessions.id = samples.session_id
                    WHERE sessions.mode = 'listener' AND samples.lat IS NOT NULL
                    """),
                (.fix, """
                    SELECT fixes.id FROM fixes JOIN sessions ON sessions.id = fixes.session_id
                    WHERE sessions.mode = 'matching'
                    """),
            ]
        case .ttnmapper:
            return [
                (.sample, """
                    SELECT samples.id FROM samples JOIN sessions ON sessions.id = samples.session_id
                    WHERE samples.uplink_id IS NOT NULL AND samples.lat IS NOT NULL AND sessions.mode != 'imported'
                    AND EXISTS (SELECT 1 FROM receptions WHERE receptions.uplink_id = samples.uplink_id)
                    """),
            ]
        }
    }

    public var displayName: String {
        switch self {
        case .mapthethings: "MapTheThings"
        case .ttnmapper: "TTN Mapper"
        }
    }
}
