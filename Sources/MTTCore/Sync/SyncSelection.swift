import FoundationEssentials

/// What one `sync` run uploads, and to which targets: the choices that are policy, kept out of the
/// command line so a service or a web page makes the same ones.
public struct SyncSelection: Sendable {
    /// The target asked for; nil for every target.
    public var target: SyncTarget?
    /// Where to send, asked for: MapTheThings' base URL, TTN Mapper's endpoint, the file target's file.
    public var url: URL?
    /// TTN Mapper's experiment, instead of its main map.
    public var experiment: String?
    /// The targets a run that names none uploads to.
    public var defaultTargets: [SyncTarget]

    public init(target: SyncTarget? = nil, url: URL? = nil, experiment: String? = nil, settings: Config? = nil) {
        self.target = target
        self.url = url
        self.experiment = experiment
        defaultTargets = SyncTarget.defaultRun(in: settings)
    }

    /// `sync.target`, `sync.url` and `sync.experiment`, checked: a URL must be one its target takes.
    public init(settings: Config) throws(ConfigError) {
        let target = settings.text(.syncTarget).flatMap(SyncTarget.init(rawValue:))
        var place: URL?
        if let text = settings.text(.syncURL) {
            // A server named without a target is a MapTheThings server.
            let taker = target ?? .mapthethings
            guard let parsed = taker.parseURL(text) else { throw settings.problem(.syncURL, "takes \(taker.urlForm), not \(text)") }
            place = parsed
        }
        let experiment = settings.text(.syncExperiment)
        if experiment != nil, let target, target != .ttnmapper { throw settings.problem(.syncExperiment, "is for target ttnmapper") }
        self.init(target: target, url: place, experiment: experiment, settings: settings)
    }

    /// The targets in upload order. A server named without a target is a MapTheThings server
    /// (it is the one that is self-hosted), so only MapTheThings is synced then.
    public var targets: [SyncTarget] {
        if let target { return [target] }
        return url == nil ? defaultTargets : [.mapthethings]
    }

    /// Why a target is left out although none was named, for the user; nil when none is.
    public var narrowing: String? {
        target == nil && url != nil ? "a server URL names one server, so only MapTheThings is synced" : nil
    }
}

extension Store {
    /// The id TTN Mapper groups this database's uploads by: made once (`mtt-` and a random UUID)
    /// and kept, so every upload from it lands under one mapper.
    public func ttnMapperUserID() throws -> String {
        try metaValue("ttnmapper.userid") { "mtt-" + UUID().uuidString.lowercased() }
    }
}
