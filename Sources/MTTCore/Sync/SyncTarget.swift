import FoundationEssentials

/// Somewhere mtt uploads to: a map service, a database, a file. Each keeps its own per-record sync
/// state in the store, so a record reaches each target exactly once. A target is one value
/// registered in `SyncTarget.registered`; the command line's `--target`, the configuration's
/// `sync.target` and its own keys, the help and `mtt status` all read that list.
public struct SyncTarget: RegisteredKind {
    /// The name on the command line, in the configuration and in `sync_state`.
    public let name: String
    public let displayName: String
    /// One line for `mtt sync --help`.
    public let help: String
    /// The kinds of record it takes, in upload order.
    public let queues: [SyncQueue]
    /// What `--url` (or `sync.url`) names for it, for help and messages.
    public let urlForm: String
    /// The public service it sends to unless told otherwise: simulated records never go there.
    public let publicURL: URL?
    /// Its own settings, `sync.NAME.KEY` in the configuration.
    public let configKeys: [ConfigKey]
    /// Whether a `mtt sync` that names no target includes it (nil: nothing configured).
    let inDefaultRun: @Sendable (Config?) -> Bool
    /// Reads `--url`; nil when the text is not a place this target can send to.
    let parseURL: @Sendable (String) -> URL?
    /// The upload for one run (its destination over the transport it takes from the context's
    /// `SyncTransports`), or nil when nothing waits for it.
    let prepare: @Sendable (SyncTargetContext) throws -> (any SyncUpload)?

    init(
        name: String, displayName: String, help: String, queues: [SyncQueue],
        urlForm: String = "an http:// or https:// URL", publicURL: URL? = nil, configKeys: [ConfigKey] = [],
        inDefaultRun: @escaping @Sendable (Config?) -> Bool = { _ in true },
        parseURL: @escaping @Sendable (String) -> URL? = HTTPURLText.url,
        prepare: @escaping @Sendable (SyncTargetContext) throws -> (any SyncUpload)?
    ) {
        self.name = name
        self.displayName = displayName
        self.help = help
        self.queues = queues
        self.urlForm = urlForm
        self.publicURL = publicURL
        self.configKeys = configKeys
        self.inDefaultRun = inDefaultRun
        self.parseURL = parseURL
        self.prepare = prepare
    }

    /// Every target, in upload order. A new target is one file declaring a `SyncTarget` and one
    /// line here.
    public static let registered: [SyncTarget] = [
        .mapthethings,
        .ttnmapper,
        .file,
        .postgis,
    ]

    /// Whether a run to `url` (nil: the default) would reach the public service.
    public func isPublic(_ url: URL?) -> Bool {
        guard let publicURL else { return false }
        return (url ?? publicURL).host?.lowercased() == publicURL.host?.lowercased()
    }

    /// The targets a `mtt sync` that names none uploads to, with these settings.
    public static func defaultRun(in settings: Config?) -> [SyncTarget] {
        registered.filter { $0.inDefaultRun(settings) }
    }
}

/// In summaries and messages as its name.
extension SyncTarget: Codable {}
