/// The transports of one sync run, made by the command line from the adapters (HTTP with its
/// proxies and CA, a file appender, a database connection) and handed to each target's `prepare`.
/// Each is made when a target first asks for it.
public struct SyncTransports: Sendable {
    public var http: @Sendable () throws -> any SyncTransport<HTTPSyncRequest, HTTPSyncResponse>
    public var file: @Sendable () throws -> any SyncTransport<FileAppend, Void>
    /// A connection to the database a connection string names (libpq's: a postgresql:// URL).
    public var database: @Sendable (String) throws -> any SyncTransport<DatabaseBatch, Void>

    public init(
        http: @escaping @Sendable () throws -> any SyncTransport<HTTPSyncRequest, HTTPSyncResponse>,
        file: @escaping @Sendable () throws -> any SyncTransport<FileAppend, Void>,
        database: @escaping @Sendable (String) throws -> any SyncTransport<DatabaseBatch, Void>
    ) {
        self.http = http
        self.file = file
        self.database = database
    }
}
