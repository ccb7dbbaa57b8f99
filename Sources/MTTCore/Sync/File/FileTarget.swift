import FoundationEssentials

extension SyncTarget {
    /// A file of JSON lines: each settled attempt, heard sample and track point appended once, for
    /// a USB stick or another program. Needs no network: its transport is a file.
    public static let file: SyncTarget = SyncTarget(
        name: "file", displayName: "file",
        help: """
            each settled attempt, heard uplink and track point appended once as a JSON line (type attempt, \
            sample or fix) to the file [sync.file] path names (or the sync URL); in a sync of every \
            target only when that path is set. A regular file only: a symbolic link, a FIFO or a device is \
            refused.
            """,
        queues: [.settledAttempts, .placedSamples, .allFixes],
        urlForm: "a file path",
        configKeys: [.syncFilePath],
        inDefaultRun: { settings in settings?.text(.syncFilePath) != nil },
        parseURL: { text in
            if text.hasPrefix("file://") { return URL(string: text).flatMap { $0.path.isEmpty ? nil : $0 } }
            return text.isEmpty || text.contains("://") ? nil : URL(filePath: text)
        },
        prepare: { context in
            guard let path = context.url?.path ?? context.settings.text(.syncFilePath) else {
                throw SyncTargetProblem("the file target needs a file: [sync.file] path in the configuration, MTT_SYNC_FILE_PATH, or the file as the sync URL")
            }
            guard try context.store.sync.syncQueueCount(.file, scope: context.policy.scope) > 0 else { return nil }
            let destination = FileDestination(path: path, databaseID: try context.store.databaseID())
            return Uploader(store: context.store, destination: destination, transport: try context.transports.file(), policy: context.policy)
        })
}

extension ConfigKey {
    public static let syncFilePath = ConfigKey("sync.file.path", .text, nil, "The file target's file: JSON lines are appended to it.")
}
