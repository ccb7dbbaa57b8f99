import FoundationEssentials
import GRDB

extension StoreRecords {
    /// Keeps the reply a field tester's test (`uplink`) was answered with.
    public func recordFieldTestReply(_ reply: FieldTesterReply, uplink: Int64, at time: Timestamp) throws {
        try write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO field_test_replies (uplink_id, reply, reason, sent_at) VALUES (?, ?, ?, ?)",
                arguments: [uplink, Data(reply.bytes), reply.reason, time.nanosecondsSinceEpoch])
        }
    }
}
