import FoundationEssentials

/// TTN Mapper's v4 endpoint (or a custom server taking the same documents).
public struct TTNMapperDestination: SyncDestination {
    public static let defaultURL = URL(string: "https://integrations.ttnmapper.org/android/v4")!

    public let target = SyncTarget.ttnmapper
    public var url: URL
    public var server: String { url.absoluteString }
    /// Upload to this experiment instead of the main map; held records go too.
    public var experiment: String?
    /// The stable id TTN Mapper groups this mapper's uploads by.
    public var userID: String
    public var gate = TTNMapperQualityGate()
    /// Whether samples placed by their device's own position go too (`sync.ttnmapper.trackers`).
    public var sendsTrackers = false

    public init(url: URL, experiment: String?, userID: String) {
        self.url = url
        self.experiment = experiment.flatMap { $0.isEmpty ? nil : $0 }
        self.userID = userID
    }

    /// Held records are offered again to an experiment, and once trackers' samples may go.
    public var includesHeld: Bool { experiment != nil || sendsTrackers }

    public func work(for kind: SyncRecordKind, ids: [Int64], store: Store) throws -> [SyncWork<HTTPSyncRequest>] {
        guard kind == .sample else { return [] }
        let encoder = JSONEncoder.stable()
        return try store.sync.queuedSamples(ids).map { sample in
            if let reason = Self.holdReason(sample, gate: experiment == nil ? gate : nil, sendsTrackers: sendsTrackers) {
                return .hold(kind: kind, recordID: sample.id, reason: reason)
            }
            let document = TTNMapperDocument(sample: sample, experiment: experiment, userID: userID)
            return .upload(SyncBatch(kind: kind, recordIDs: [sample.id], request: HTTPSyncRequest(url: url, body: try encoder.encode(document))))
        }
    }

    /// Why `sample` is held back: a tracker's own position (unless those go), or the quality
    /// gate's verdict (none for an experiment); nil when it goes.
    static func holdReason(_ sample: QueuedSample, gate: TTNMapperQualityGate?, sendsTrackers: Bool) -> String? {
        if sample.method == Sample.PositionMethod.payload.rawValue && !sendsTrackers { return trackerHold }
        return gate?.reason(against: sample.position, fix: sample.nearestFix)
    }

    static let trackerHold = "placed by the device's own position: the application's TTN Mapper integration sends it (set [sync.ttnmapper] trackers = true to send it from mtt)"

    /// TTN Mapper answers 200 with `{"success":bool,"message":string}` even when it rejects.
    public func verdict(for response: HTTPSyncResponse, kind: SyncRecordKind) -> SyncVerdict {
        struct Answer: Decodable {
            var success: Bool
            var message: String?
        }
        switch response.status {
        case 200..<300:
            guard let answer = try? JSONDecoder().decode(Answer.self, from: response.body) else {
                return .retry("HTTP \(response.status) without TTN Mapper's answer: \(response.bodyLine)")
            }
            return answer.success ? .accepted : .rejected(answer.message ?? "success false")
        case 401, 403:
            return .stop("TTN Mapper at \(url.absoluteString) refused the upload (HTTP \(response.status)): \(response.bodyLine)")
        case 404, 405:
            return .stop("\(url.absoluteString) does not take TTN Mapper documents (HTTP \(response.status)): is the URL right?")
        case 408, 429, 500...:
            return .retry("HTTP \(response.status): \(response.bodyLine)")
        default:
            return .rejected("HTTP \(response.status): \(response.bodyLine)")
        }
    }
}
