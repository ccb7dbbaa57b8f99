import Foundation
import MTTCore

/// The human summary of `mtt status` and the end of `mtt demo`.
enum StatusText {
    /// - Parameter networkKnown: false at the end of a run that had no network source, where
    ///   "heard 0" would read as every attempt lost.
    static func render(_ status: StoreStatus, path: String, networkKnown: Bool = true) -> String {
        let loss = status.lossPercent.map { String(format: "%.0f %%", $0) } ?? "n/a"
        let heard = networkKnown
            ? "\(status.heard) attempts (loss \(loss))"
            : status.linkChecks > 0 ? "no network source in this run: the link checks below say"
            : "not known: no network source in this run (mtt fetch, or a run with --mqtt-url, tells)"
        let queues = status.unsynced.keys.sorted().map { target in
            let held = status.held[target] ?? 0
            return "\(target) \(status.unsynced[target] ?? 0)" + (held > 0 ? " (+\(held) held back: mtt status --reasons)" : "")
        }.joined(separator: ", ")
        return """
            Database   \(path)
            Sessions   \(status.sessions)
            Attempts   \(status.attempts) (confirmed \(status.confirmed), failed \(status.failed), pending \(status.pending))
            Heard      \(heard)\(linkChecks(status))
            Uplinks    \(status.uplinks)
            GPS fixes  \(status.gpsSamples)
            Samples    \(status.samples) with a position
            """ + devices(status) + """

            To upload  \(queues)
            """ + heldBack(status) + render(status.nodes)
    }

    /// What the link checks said (`--linkcheck`): the network's word without its uplinks.
    private static func linkChecks(_ status: StoreStatus) -> String {
        guard status.linkChecks > 0 else { return "" }
        return "\nLinkCheck  \(status.linkChecksAnswered) of \(status.linkChecks) attempts answered (heard), the others not heard"
    }

    /// The devices heard, and the frames trackers sent that nobody heard; nothing without uplinks.
    private static func devices(_ status: StoreStatus) -> String {
        guard status.devices > 0 else { return "" }
        var text = "\nDevices    \(status.devices) (mtt status --devices lists them, mtt sessions devices their own sessions)"
        if status.fieldTestsAnswered > 0 {
            text += "\nField tests \(status.fieldTestsAnswered) answered (mtt events --type field_test_answered: the bytes each was sent)"
        }
        if status.estimatedAttempts > 0 {
            text += "\nUnheard    \(CountText.of(status.estimatedAttempts, "frame")) trackers sent and nobody heard, estimated from their frame counters"
        }
        return text
    }

    /// Each device over all its sessions, one line each.
    static func render(_ devices: [DeviceSummary]) -> String {
        guard !devices.isEmpty else { return "No device heard yet." }
        let width = max(6, devices.map(\.device.count).max() ?? 0)
        func pad(_ text: String, _ n: Int) -> String { text + String(repeating: " ", count: max(0, n - text.count)) }
        var lines = ["Devices    " + pad("device", width) + "  sessions  uplinks  placed  unheard (est.)  last heard            last position"]
        for d in devices {
            let place = d.lastLatitude.flatMap { lat in d.lastLongitude.map { PlaceText.of(latitude: lat, longitude: $0) } } ?? "-"
            lines.append("           " + pad(d.device, width) + "  " + pad(String(d.sessions), 8) + "  " + pad(String(d.uplinks), 7) + "  "
                + pad(String(d.placed), 6) + "  " + pad(String(d.estimatedAttempts), 14) + "  " + pad(d.lastHeard, 20) + "  " + place)
        }
        return lines.joined(separator: "\n")
    }

    /// What a plain sync leaves alone, and why.
    private static func heldBack(_ status: StoreStatus) -> String {
        func line(_ counts: [String: Int], _ why: String) -> String {
            let nonzero = counts.keys.sorted().filter { (counts[$0] ?? 0) > 0 }
            guard !nonzero.isEmpty else { return "" }
            return "\nHeld back  " + nonzero.map { "\($0) \(counts[$0] ?? 0)" }.joined(separator: ", ") + " " + why
        }
        let notTaken = status.notTaken.keys.sorted().compactMap { target in
            status.notTaken[target].map { "\nNot taken  \(target) \($0.count), not sent again: \($0.reason) (--url another server tries them)" }
        }.joined()
        return line(status.simulated, "of simulated sessions: never sent to a public map (mtt sessions lists them)")
            + line(status.excluded, "of sessions excluded from sync (mtt sessions include N)") + notTaken
    }

    /// The nodes of the newest run: reachable or lost since when, and how often they came back.
    private static func render(_ nodes: [NodeState]) -> String {
        guard let session = nodes.first?.session else { return "" }
        let ended = nodes.first?.sessionEnded == true
        var lines = ["", "Nodes      of session \(session), \(ended ? "as it ended" : "running (or killed before it could close)")"]
        for node in nodes {
            let since = RFC3339.string(node.since, fractionDigits: 0)
            let state = node.state == .connected ? "connected since \(since)" : "lost since \(since): \(node.reason ?? "no reason given")"
            lines.append("           \(node.node)  \(state), \(node.reconnects) reconnect\(node.reconnects == 1 ? "" : "s")")
        }
        return lines.joined(separator: "\n")
    }

    /// Uplinks kept without a position, by reason and device, most first; nothing when there are none.
    static func render(_ unplaced: [UnplacedCount]) -> String? {
        guard !unplaced.isEmpty else { return nil }
        let width = unplaced.map(\.reason.count).max() ?? 0
        let digits = String(unplaced.map(\.count).max() ?? 0).count
        return (["", "Kept without a position (uplinks, why, device):"] + unplaced.map { count in
            let n = String(count.count)
            return String(repeating: " ", count: digits - n.count + 2) + n + "  " + count.reason.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + count.device
        }).joined(separator: "\n")
    }

    /// The reasons of `mtt status --reasons`, a heading per target and state; `wouldHold` is how
    /// many waiting records the next sync's quality gate holds back (of which `messages` has the newest).
    static func render(_ messages: [SyncMessage], wouldHold: Int = 0) -> String {
        guard !messages.isEmpty else { return "\nNo record was rejected or held back, and the next sync holds none back." }
        var lines: [String] = []
        var heading = ""
        for message in messages {
            let next = message.atNextSync
                ? "The next sync to \(message.target.rawValue) holds back \(CountText.of(wouldHold, "waiting record")), newest first (the quality gate's go to an --experiment):"
                : message.state == .held
                ? "Held back from \(message.target.rawValue), newest first (the quality gate's go to an --experiment):"
                : "Rejected by \(message.target.rawValue), newest first:"
            if next != heading {
                lines += ["", next]
                heading = next
            }
            lines.append("  \(message.kind.rawValue) \(message.recordID): \(message.message)")
        }
        return lines.joined(separator: "\n")
    }
}
