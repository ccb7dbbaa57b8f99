import FoundationEssentials

extension SyncTarget {
    /// A community's coverage database on PostgreSQL/PostGIS (`mtt community init`): every settled
    /// attempt, placed sample with its receptions and track point, once, keyed by this database's
    /// UUID and the record's id; the database keeps the coverage and decides who may write what.
    public static let postgis: SyncTarget = SyncTarget(
        name: "postgis", displayName: "the community database",
        help: """
            a community's PostgreSQL/PostGIS database (mtt community init): each settled attempt, placed \
            sample with its receptions and track point, once; [sync.postgis] url names it (postgresql://USER@HOST/DB), \
            the password comes from ~/.pgpass, a passfile or PGPASSWORD; in a sync of every target only when the url is set.
            """,
        queues: [.settledAttempts, .placedSamples, .allFixes],
        urlForm: "a postgresql:// URL",
        configKeys: [.syncPostgisURL],
        inDefaultRun: { settings in settings?.text(.syncPostgisURL) != nil },
        parseURL: { text in
            guard text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") else { return nil }
            return URL(string: text)
        },
        prepare: { context in
            guard let url = context.url?.absoluteString ?? context.settings.text(.syncPostgisURL) else {
                throw SyncTargetProblem("the community database needs its URL: [sync.postgis] url in the configuration, MTT_SYNC_POSTGIS_URL, or postgresql://USER@HOST/DB as the sync URL")
            }
            if let parsed = URL(string: url), parsed.password != nil {
                throw SyncTargetProblem("the community database's URL carries a password, which others can read: put it in ~/.pgpass (mode 600), a passfile or PGPASSWORD")
            }
            guard try context.store.sync.syncQueueCount(.postgis, scope: context.policy.scope) > 0 else { return nil }
            let destination = PostGISDestination(server: Self.withoutSecrets(url), databaseID: try context.store.databaseID())
            return Uploader(store: context.store, destination: destination, transport: try context.transports.database(url), policy: context.policy)
        })

    /// Where a URL points, for messages: its query (which may name files and options) left out.
    static func withoutSecrets(_ url: String) -> String {
        String(url.prefix { $0 != "?" })
    }
}

extension ConfigKey {
    public static let syncPostgisURL = ConfigKey(
        "sync.postgis.url", .text, nil, "The community database the postgis target uploads to: postgresql://USER@HOST:PORT/DATABASE (no password).")
}
