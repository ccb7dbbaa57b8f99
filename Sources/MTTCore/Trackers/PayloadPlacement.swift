/// Listener mode with `--gps payload` or `payload+GPS`: an uplink that carries its device's position
/// is placed there at once; with a GPS beside, the uplinks of devices that send no position are
/// placed on its track as any listener's are.
public struct PayloadPlacement: Sendable, Hashable {
    public var positioning: PayloadPositioning
    /// Whether a GPS's track places the uplinks of devices whose payload carries no position.
    public var besideTrack: Bool
    /// How frames nobody heard are estimated from the devices' frame counters.
    public var gaps: FrameCounterGaps.Rules

    public init(positioning: PayloadPositioning = PayloadPositioning(), gaps: FrameCounterGaps.Rules = .init(), besideTrack: Bool) {
        self.positioning = positioning
        self.gaps = gaps
        self.besideTrack = besideTrack
    }

    /// The uplink's sample from its payload; nil when the track is to place it. A device that does
    /// send positions is never placed on the track, which is not where it is: a position it sent
    /// that fails a gate, or a frame without a fix, leaves its sample without a position and with
    /// the reason.
    func sample(uplink: Uplink, id: Int64, session: Int64) -> Sample? {
        let time = uplink.earliestReceiveTime
        let outcome = positioning.outcome(for: uplink)
        switch outcome {
        case .placed(let position):
            return Sample(
                sessionID: session, subject: .uplink(id), time: time,
                position: GeoPoint(latitude: position.latitude, longitude: position.longitude, altitude: position.altitude),
                method: .payload)
        case .unread(let unread) where besideTrack && (unread.kind == .noDecoder || unread.kind == .notAPosition):
            return nil
        default:
            return Sample(sessionID: session, subject: .uplink(id), time: time, position: nil, method: .none, reason: outcome.reason)
        }
    }
}
