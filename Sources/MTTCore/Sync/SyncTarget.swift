/// A map service that mtt uploads to. Each keeps its own per-record sync state in the store,
/// so a record reaches each target exactly once.
public enum SyncTarget: String, Sendable, Hashable, Codable, CaseIterable {
    case mapthethings
    case ttnmapper

    /// The kinds of record a target takes, each with the SQL that selects the ids it still waits for.
    /// A record leaves the queue once the target accepted or finally rejected it.
    var queues: [(kind: String, candidates: String)] {
        switch self {
        case .mapthethings:
            return [
                ("attempt", "SELECT id FROM attempts WHERE state = 'confirmed'"),
                ("sample", """
                    SELECT samples.id FROM samples JOIN sessions ON sessions.id = samples.session_id
                    WHERE sessions.mode = 'listener' AND samples.lat IS NOT NULL
                    """),
                ("fix", """
                    SELECT fixes.id FROM fixes JOIN sessions ON sessions.id = fixes.session_id
                    WHERE sessions.mode = 'matching'
                    """),
            ]
        case .ttnmapper:
            return [
                ("sample", """
                    SELECT samples.id FROM samples
                    WHERE samples.uplink_id IS NOT NULL AND samples.lat IS NOT NULL
                    AND EXISTS (SELECT 1 FROM receptions WHERE receptions.uplink_id = samples.uplink_id)
                    """),
            ]
        }
    }
}
