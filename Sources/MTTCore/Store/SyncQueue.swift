/// One kind of record a target takes, as the store selects it: the ids of every candidate row. A
/// target's queue is its candidates minus what `sync_state` says it settled. Targets name queues;
/// the SQL stays with the store.
public struct SyncQueue: Sendable, Hashable {
    public let kind: SyncRecordKind
    /// A SELECT of one column, the candidate ids.
    let candidates: String

    init(_ kind: SyncRecordKind, _ candidates: String) {
        self.kind = kind
        self.candidates = candidates
    }
}

extension SyncQueue {
    /// Confirmed active-mode attempts with their fix. Imported data sets came from the public maps
    /// and are never sent back.
    public static let confirmedAttempts = SyncQueue(.attempt, """
        SELECT attempts.id FROM attempts JOIN sessions ON sessions.id = attempts.session_id
        WHERE attempts.state = 'confirmed' AND attempts.fix_id IS NOT NULL AND sessions.mode != 'imported'
        """)

    /// Every settled attempt (confirmed or failed) with its fix, whatever its session.
    public static let settledAttempts = SyncQueue(.attempt, """
        SELECT attempts.id FROM attempts WHERE attempts.state != 'pending' AND attempts.fix_id IS NOT NULL
        """)

    /// Listener-mode samples placed on the track.
    public static let listenerSamples = SyncQueue(.sample, """
        SELECT samples.id FROM samples JOIN sessions ON sessions.id = samples.session_id
        WHERE sessions.mode = 'listener' AND samples.lat IS NOT NULL
        """)

    /// Heard uplinks with a position and at least one gateway, from mtt's own sessions.
    public static let heardSamples = SyncQueue(.sample, """
        SELECT samples.id FROM samples JOIN sessions ON sessions.id = samples.session_id
        WHERE samples.uplink_id IS NOT NULL AND samples.lat IS NOT NULL AND sessions.mode != 'imported'
        AND EXISTS (SELECT 1 FROM receptions WHERE receptions.uplink_id = samples.uplink_id)
        """)

    /// Every heard uplink with a position, whatever its session.
    public static let placedSamples = SyncQueue(.sample, """
        SELECT samples.id FROM samples WHERE samples.uplink_id IS NOT NULL AND samples.lat IS NOT NULL
        """)

    /// The points of matching-mode tracks.
    public static let matchingTrackPoints = SyncQueue(.fix, """
        SELECT fixes.id FROM fixes JOIN sessions ON sessions.id = fixes.session_id
        WHERE sessions.mode = 'matching'
        """)

    /// Every fix of every track.
    public static let allFixes = SyncQueue(.fix, "SELECT fixes.id FROM fixes")
}
