/// One `mtt sync`: each selected target in turn, under its claim on the database, through the
/// transport it names; its summary stored as a `sync_done` event. The command line builds the
/// transports and renders what the observer is told; a service would do the same.
public struct SyncRun: Sendable {
    public var store: Store
    public var selection: SyncSelection
    public var settings: Config
    public var policy: SyncPolicy
    public var transports: SyncTransports
    public var secrets: SecretReader

    public init(store: Store, selection: SyncSelection, settings: Config, policy: SyncPolicy, transports: SyncTransports, secrets: SecretReader) {
        self.store = store
        self.selection = selection
        self.settings = settings
        self.policy = policy
        self.transports = transports
        self.secrets = secrets
    }

    /// What the run tells as it goes.
    public struct Observer: Sendable {
        /// A target's upload begins (not called for a target with nothing to do).
        public var began: @Sendable (SyncTarget) -> Void
        public var progress: @Sendable (SyncProgress) -> Void
        /// A target is done, with nothing to do or after its upload.
        public var finished: @Sendable (SyncSummary) -> Void
        /// A `sync_done` event, already stored, for the hooks.
        public var event: @Sendable (FieldEvent) -> Void

        public init(
            began: @escaping @Sendable (SyncTarget) -> Void = { _ in }, progress: @escaping @Sendable (SyncProgress) -> Void = { _ in },
            finished: @escaping @Sendable (SyncSummary) -> Void = { _ in }, event: @escaping @Sendable (FieldEvent) -> Void = { _ in }
        ) {
            self.began = began
            self.progress = progress
            self.finished = finished
            self.event = event
        }
    }

    /// Uploads to every selected target until done or `stopRequested`; cancelling the task abandons
    /// the requests in flight (they are sent again next time). Returns what went wrong, a line per
    /// target, empty when everything that could go went.
    public func run(stopRequested: @escaping @Sendable () -> Bool, observer: Observer) async throws -> [String] {
        var failures: [String] = []
        for target in selection.targets {
            if stopRequested() { break }
            do {
                try refuseSimulatedToThePublic(target)
                guard let claim = try store.sync.claimSync(target) else {
                    throw SyncTargetProblem("another mtt sync is uploading from this database to \(target.displayName); try again when it is done")
                }
                defer { claim.release() }
                let queue = try store.sync.syncQueueCounts(target, scope: policy.scope)
                guard let upload = try target.prepare(self.context) else {
                    observer.finished(SyncSummary(target: target, simulated: queue.simulated, excluded: queue.excluded))
                    continue
                }
                observer.began(target)
                var summary = try await upload.run(stopRequested: stopRequested, progress: observer.progress)
                (summary.simulated, summary.excluded) = (queue.simulated, queue.excluded)
                observer.finished(summary)
                let done = FieldEvent.syncDone(summary, at: .now(), mapURL: settings.alertRules.mapURL)
                try? store.records.recordEvents([done])
                observer.event(done)
                if let reason = summary.stopReason {
                    failures.append("\(target.name): \(reason); \(summary.queued) record(s) stay queued")
                } else if summary.failed > 0 {
                    failures.append("\(target.name): \(summary.failed) record(s) could not be delivered and stay queued")
                }
                failures += summary.refused.map { "\(target.name): \($0)" }
            } catch let problem as SyncTargetProblem {
                failures.append("\(target.name): \(problem.description)")
            }
        }
        return failures
    }

    /// What `run` would send to each selected target and what it would hold back, and why;
    /// nothing is sent or written.
    public func preview() async throws -> [SyncPreview] {
        var previews: [SyncPreview] = []
        for target in selection.targets {
            var preview = SyncPreview(target: target)
            do {
                try refuseSimulatedToThePublic(target)
                if let upload = try target.prepare(context) {
                    preview = try await upload.preview()
                }
            } catch let problem as SyncTargetProblem {
                preview.problem = problem.description
            }
            let queue = try store.sync.syncQueueCounts(target, scope: policy.scope)
            (preview.simulated, preview.excluded) = (queue.simulated, queue.excluded)
            previews.append(preview)
        }
        return previews
    }

    private var context: SyncTargetContext {
        SyncTargetContext(
            store: store, settings: settings, url: selection.url, experiment: selection.experiment,
            policy: policy, transports: transports, secrets: secrets)
    }

    /// Simulated records are for one's own server: a run that includes them never goes to a
    /// target's public service.
    private func refuseSimulatedToThePublic(_ target: SyncTarget) throws {
        if policy.scope.includeSimulated && target.isPublic(selection.url) {
            throw SyncTargetProblem(
                "--include-simulated never sends to the public \(target.displayName) (\(target.publicURL?.host ?? "")); name your own server with --url")
        }
    }
}
