import GRDB

/// One concern of the store (its sessions, its records, its upload queues, its coverage), as GRDB
/// groups a database's work by record: `store.sessions.startSession(…)`, `store.coverage.reach(…)`.
/// Each part reads and writes through the store's one connection.
protocol StorePart: Sendable {
    var store: Store { get }
}

extension StorePart {
    func read<T>(_ body: (Database) throws -> T) throws -> T { try store.read(body) }
    func write<T>(_ body: (Database) throws -> T) throws -> T { try store.write(body) }
    func batch<T>(_ body: (Store.Batch) throws -> T) throws -> T { try store.batch(body) }
    var path: String { store.path }
}
