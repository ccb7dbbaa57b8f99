import FoundationEssentials

extension SyncTarget {
    /// TTN Mapper's v4 endpoint (or a custom server taking the same documents): each heard uplink
    /// with its gateways and the mapper's position.
    public static let ttnmapper: SyncTarget = SyncTarget(
        name: "ttnmapper", displayName: "TTN Mapper",
        help: """
            each heard uplink with its gateways and your position (default \(TTNMapperDestination.defaultURL.absoluteString)). \
            Positions failing TTN Mapper's quality gate (fewer than 4 satellites, accuracy over 15 m, HDOP over 5) \
            are held back from the main map and go only with --experiment. Uplinks placed by their \
            device's own position (--gps payload) are held too, unless [sync.ttnmapper] trackers = true: \
            the application's own TTN Mapper integration sends those already.
            """,
        queues: [.heardSamples],
        publicURL: TTNMapperDestination.defaultURL,
        configKeys: [.syncTTNMapperTrackers],
        prepare: { context in
            var destination = TTNMapperDestination(
                url: context.url ?? TTNMapperDestination.defaultURL, experiment: context.experiment, userID: try context.store.ttnMapperUserID())
            destination.sendsTrackers = context.settings.flag(.syncTTNMapperTrackers)
            return Uploader(store: context.store, destination: destination, transport: try context.transports.http(), policy: context.policy)
        })
}

extension ConfigKey {
    public static let syncTTNMapperTrackers = ConfigKey(
        "sync.ttnmapper.trackers", .flag, .flag(false),
        "Also send TTN Mapper the uplinks placed by their device's own position (gps = payload); off because the application's TTN Mapper integration sends them already.")
}
