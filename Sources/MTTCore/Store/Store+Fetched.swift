import GRDB

/// What storing a batch of fetched uplinks did.
public struct FetchedBatchOutcome: Sendable, Hashable {
    public var new = 0
    /// Already in the database (MQTT brought them live, or an earlier fetch).
    public var alreadyStored = 0
    /// Attempts of an active session that these uplinks showed heard.
    public var heard = 0
    /// Uplinks placed by their device's own position (a session recorded with `--gps payload`).
    public var placed = 0
    /// Uplinks of such a session kept without a position, by the kind of reason.
    public var unplaceable: [String: Int] = [:]
}


extension StoreRecords {
    /// Stores uplinks `mtt fetch` read for a session, in one transaction: each once (an uplink is
    /// the same by device, network receive time and frame counter, whether MQTT or a fetch
    /// brought it); in an active session each is joined to the attempt it was, by DevEUI and frame
    /// counter, exactly as a live uplink is. Existing rows are never changed but for that link.
    ///
    /// In a session recorded with payload positions (`payload`), each new uplink is placed by its
    /// device's own position as a live one is, and the frames between them nobody heard are
    /// estimated (`gaps`, kept from one batch to the next); an uplink whose payload carries no
    /// position is left for its track.
    public func recordFetched(
        _ uplinks: [Uplink], session: Int64, mode: CollectionMode, payload: PayloadPlacement? = nil
    ) throws -> FetchedBatchOutcome {
        var gaps = FrameCounterGaps()
        return try recordFetched(uplinks, session: session, mode: mode, payload: payload, gaps: &gaps)
    }

    public func recordFetched(
        _ uplinks: [Uplink], session: Int64, mode: CollectionMode, payload: PayloadPlacement?, gaps: inout FrameCounterGaps
    ) throws -> FetchedBatchOutcome {
        // Taken back only once stored: a batch rolled back forgets the frames it counted.
        var counters = gaps
        let outcome = try batch { batch in
            var outcome = FetchedBatchOutcome()
            let sentAs = try batch.db.cachedStatement(sql: """
                SELECT a.id AS attempt_id, f.* FROM attempts a LEFT JOIN fixes f ON f.id = a.fix_id
                WHERE a.session_id = ? AND a.dev_eui = ? AND a.f_cnt = ? AND a.state = 'confirmed' AND a.uplink_id IS NULL
                ORDER BY a.id DESC LIMIT 1
                """)
            for uplink in uplinks {
                if try batch.storedUplinkID(uplink) != nil {
                    outcome.alreadyStored += 1
                    continue
                }
                let id = try batch.record(uplink, session: session)
                outcome.new += 1
                if let payload {
                    let sample = payload.sample(uplink: uplink, id: id, session: session)
                    if let sample {
                        try batch.record(sample)
                        if sample.position != nil {
                            outcome.placed += 1
                        } else {
                            outcome.unplaceable[PlacementOutcome.kind(of: sample.reason ?? "no reason given"), default: 0] += 1
                        }
                    }
                    for estimated in counters.heard(uplink, id: id, session: session, position: sample?.position) { try batch.record(estimated) }
                }
                guard mode == .active, let devEUI = uplink.devEUI, let fCnt = uplink.fCnt,
                      let row = try Row.fetchOne(sentAs, arguments: [session, devEUI, Int64(fCnt)])
                else { continue }
                let fix = (row[FetchedAttemptColumns.time] as Int64?) == nil ? nil : Store.fix(from: row)
                try batch.recordHeard(attempt: row[FetchedAttemptColumns.attemptID], uplink: id, session: session, fix: fix)
                outcome.heard += 1
            }
            return outcome
        }
        gaps = counters
        return outcome
    }

    /// The DevEUIs an active session's attempts were sent with: whose uplinks belong to it.
    public func attemptDevEUIs(session: Int64) throws -> Set<String> {
        try read { db in
            Set(try String.fetchAll(db, sql: "SELECT DISTINCT dev_eui FROM attempts WHERE session_id = ? AND dev_eui IS NOT NULL", arguments: [session]))
        }
    }

    /// Confirmed attempts of a session that no uplink showed heard: lost, as far as the network tells.
    public func unheardAttempts(session: Int64) throws -> Int {
        try read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM attempts WHERE session_id = ? AND state = 'confirmed' AND uplink_id IS NULL", arguments: [session]) ?? 0
        }
    }
}

extension StoreSessions {
    /// A fetch read all of the session's stored uplinks.
    public func markFetched(session: Int64, at time: Timestamp) throws {
        try write { db in
            try db.execute(sql: "UPDATE sessions SET fetched_at = ? WHERE id = ?", arguments: [time.nanosecondsSinceEpoch, session])
        }
    }
}
