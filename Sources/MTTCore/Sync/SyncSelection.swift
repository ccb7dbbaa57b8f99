import FoundationEssentials
import Glibc

/// What one `sync` run uploads, and to which servers: the choices that are policy, kept out of the
/// command line so a service or a web page makes the same ones.
public struct SyncSelection: Sendable {
    /// The target asked for; nil for every target.
    public var target: SyncTarget?
    /// A server asked for: MapTheThings' base URL, or with the TTN Mapper target its endpoint.
    public var url: URL?
    /// TTN Mapper's experiment, instead of its main map.
    public var experiment: String?

    public init(target: SyncTarget? = nil, url: URL? = nil, experiment: String? = nil) {
        self.target = target
        self.url = url
        self.experiment = experiment
    }

    /// The targets in upload order. A server named without a target is a MapTheThings server
    /// (it is the one that is self-hosted), so only MapTheThings is synced then.
    public var targets: [SyncTarget] {
        if let target { return [target] }
        return url == nil ? SyncTarget.allCases : [.mapthethings]
    }

    /// Why a target is left out although none was named, for the user; nil when none is.
    public var narrowing: String? {
        target == nil && url != nil ? "a server URL names one server, so only MapTheThings is synced" : nil
    }

    /// Why a destination could not be made.
    public enum Problem: Error, Sendable, Equatable {
        /// Records wait for MapTheThings and there is nothing to sign them with.
        case noCredentials(queued: Int)
    }

    /// The target's server and settings, or nil when it has nothing to do.
    /// - Parameter credentials: MapTheThings' login, read only when records wait for it.
    public func destination(
        for target: SyncTarget, store: Store, credentials: () throws -> MapTheThingsCredentials?
    ) throws -> (any SyncDestination)? {
        switch target {
        case .mapthethings:
            let queued = try store.syncQueueCount(.mapthethings)
            guard queued > 0 else { return nil }
            guard let login = try credentials() else { throw Problem.noCredentials(queued: queued) }
            return MapTheThingsDestination(baseURL: url ?? MapTheThingsDestination.defaultBaseURL, credentials: login, databaseID: try store.databaseID())
        case .ttnmapper:
            let endpoint = (self.target == .ttnmapper ? url : nil) ?? TTNMapperDestination.defaultURL
            return TTNMapperDestination(url: endpoint, experiment: experiment, userID: try store.ttnMapperUserID())
        }
    }
}

extension Store {
    /// The id TTN Mapper groups this database's uploads by: made once (`mtt-` and a random UUID)
    /// and kept, so every upload from it lands under one mapper.
    public func ttnMapperUserID() throws -> String {
        try metaValue("ttnmapper.userid") { "mtt-" + UUID().uuidString.lowercased() }
    }
}
