/// A map service that mtt uploads to. Each keeps its own per-record sync state in the store,
/// so a record reaches each target exactly once.
public enum SyncTarget: String, Sendable, Hashable, Codable, CaseIterable {
    case mapthethings
    case ttnmapper

    /// The kinds of record a target takes, each with the SQL that selects the ids it still waits for.
    /// A record leaves the queue once the target accepted or finally rejected it. Imported data sets
    /// came from these maps and are never sent back.
    var queues: [(kind: String, candidates: String)] {
        switch self {
        case .mapthethings:
            return [
                ("attempt", """
                    SELECT attempts.id FROM attempts JOIN sessions ON sessions.id = attempts.session_id
                    WHERE attempts.state = 'confirmed' AND sessions.mode != 'imported'
                    """),
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
                    SELECT samples.id FROM samples JOIN sessions ON sessions.id = samples.session_id
                    WHERE samples.uplink_id IS NOT NULL AND samples.lat IS NOT NULL AND sessions.mode != 'imported'
                    AND EXISTS (SELECT 1 FROM receptions WHERE receptions.uplink_id = samples.uplink_id)
                    """),
            ]
        }
    }
}
