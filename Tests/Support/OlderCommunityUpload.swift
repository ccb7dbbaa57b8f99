import MTTCore
import MTTPostgres

/// What an mtt before the community schema's version 4 uploaded: this mtt's postgis batches
/// without the months made first and without each reception's time, each run in one transaction.
/// How tests fill a database of an earlier version before they migrate it: this mtt's own upload
/// refuses a database older than it.
public enum OlderCommunityUpload {
    public static func upload(_ ids: [Int64], of store: Store, as url: String, kind: SyncRecordKind) throws {
        let connection = try PostgresConnection(url)
        let destination = PostGISDestination(server: "test", databaseID: try store.databaseID())
        for case .upload(let batch) in try destination.work(for: kind, ids: ids, store: store) {
            try connection.execute("BEGIN")
            for statement in batch.request.statements.compactMap(beforeMonths) {
                try connection.execute(statement.sql, statement.parameters)
            }
            try connection.execute("COMMIT")
        }
    }

    /// The statement as it was: the receptions' insert leaves the time out of its columns (its
    /// array stays among the values, read by nobody).
    static func beforeMonths(_ statement: DatabaseBatch.Statement) -> DatabaseBatch.Statement? {
        if statement.sql.hasPrefix("SELECT mtt.add_months") { return nil }
        guard statement.sql.hasPrefix("INSERT INTO mtt.receptions ") else { return statement }
        var older = statement
        for (now, then) in [("INSERT INTO mtt.receptions (db, sample_id, time, n,", "INSERT INTO mtt.receptions (db, sample_id, n,"),
                            (" SELECT db, sample_id, time, n,", " SELECT db, sample_id, n,")] {
            precondition(older.sql.contains(now), "the receptions' upload changed: \(statement.sql)")
            older.sql = older.sql.replacingOccurrences(of: now, with: then)
        }
        return older
    }
}
