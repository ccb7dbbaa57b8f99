import FoundationEssentials

extension SyncTarget {
    /// TTN Mapper's v4 endpoint (or a custom server taking the same documents): each heard uplink
    /// with its gateways and the mapper's position.
    public static let ttnmapper: SyncTarget = SyncTarget(
        name: "ttnmapper", displayName: "TTN Mapper",
        help: """
            each heard uplink with its gateways and your position (default \(TTNMapperDestination.defaultURL.absoluteString)). \
            Positions failing TTN Mapper's quality gate (fewer than 4 satellites, accuracy over 15 m, HDOP over 5) \
            are held back from the main map and go only with --experiment.
            """,
        queues: [.heardSamples],
        publicURL: TTNMapperDestination.defaultURL,
        prepare: { context in
            let destination = TTNMapperDestination(
                url: context.url ?? TTNMapperDestination.defaultURL, experiment: context.experiment, userID: try context.store.ttnMapperUserID())
            return Uploader(store: context.store, destination: destination, transport: try context.transports.http(), policy: context.policy)
        })
}
