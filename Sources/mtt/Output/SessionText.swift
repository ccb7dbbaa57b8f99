import Foundation
import MTTCore

/// A session as `mtt sessions` shows it: a few lines a person reads at a glance.
enum SessionText {
    static func render(_ summary: SessionSummary) -> String {
        let session = summary.session
        var heading = "Session \(session.id)"
        if let name = session.name { heading += "  \"\(name)\"" }
        var marks: [String] = []
        if session.isSimulated { marks.append("simulated") }
        if session.mode == .imported { marks.append("imported") }
        if session.syncExcluded { marks.append("excluded from sync") }
        if !marks.isEmpty { heading += "  [" + marks.joined(separator: ", ") + "]" }

        var when = "\(session.mode.rawValue) · \(RFC3339.string(session.startedAt, fractionDigits: 0))"
        if let end = session.endedAt {
            when += " to \(RFC3339.string(end, fractionDigits: 0)) (\(SpokenDuration.length(end.seconds(since: session.startedAt))))"
        } else {
            when += ", not ended (running, or stopped without closing)"
        }
        var parts: [String] = []
        if let nodes = session.nodes { parts.append("nodes \(nodes)") }
        if let gps = session.gps { parts.append("GPS \(gps)") }
        if let network = session.network { parts.append("network \(network)") }
        if session.name == nil, let note = session.note { parts.append(note) }

        var counts: [String] = []
        if summary.attempts > 0 {
            let loss = summary.lossPercent.map { ", loss \(Int($0.rounded())) %" } ?? ""
            counts.append("\(CountText.of(summary.attempts, "attempt")) (\(summary.heard) heard\(loss), \(summary.failed) failed)")
        }
        counts.append(CountText.of(summary.uplinks, "uplink") + (summary.devices > 1 ? " of \(summary.devices) devices" : ""))
        if summary.estimatedAttempts > 0 { counts.append("\(summary.estimatedAttempts) unheard (estimated from frame counters)") }
        counts.append(CountText.of(summary.gateways, "gateway"))
        counts.append(CountText.of(summary.samples, "sample") + " placed")
        counts.append(CountText.of(summary.fixes, "fix", plural: "fixes"))

        var lines = [heading, "  " + when]
        if !parts.isEmpty { lines.append("  " + parts.joined(separator: " · ")) }
        lines.append("  " + counts.joined(separator: " · "))
        lines.append("  " + sync(summary))
        return lines.joined(separator: "\n")
    }

    /// A device's own session on one line: which, when, how long, what it holds, where it ended.
    static func render(_ trip: DeviceSession) -> String {
        let frames = trip.firstFCnt.map { first in " · frames \(first)…\(trip.lastFCnt ?? first)" } ?? ""
        let unheard = trip.estimatedAttempts > 0 ? " · \(trip.estimatedAttempts) unheard (est.)" : ""
        let end = trip.lastPosition.map { " · last at " + PlaceText.of(latitude: $0.latitude, longitude: $0.longitude) } ?? ""
        return "\(trip.device) #\(trip.number)  \(RFC3339.string(trip.start, fractionDigits: 0)) (\(SpokenDuration.length(trip.end.seconds(since: trip.start))))"
            + " · \(CountText.of(trip.uplinks, "uplink")), \(trip.placed) placed\(unheard)\(frames)\(end)"
    }

    /// Where its records are: sent, waiting, or held back and why.
    private static func sync(_ summary: SessionSummary) -> String {
        let session = summary.session
        let states = summary.targets.filter { $0.waiting + $0.sent + $0.rejected + $0.held > 0 }
        guard !states.isEmpty else {
            return session.mode == .imported ? "sync: imported from the public maps, never sent back" : "sync: nothing to upload"
        }
        let heldBy: String? = session.syncExcluded
            ? "excluded (mtt sessions include \(session.id))"
            : session.isSimulated ? "simulated: \(session.description.simulated.joined(separator: ", "))" : nil
        let each = states.map { state in
            var parts: [String] = []
            if state.sent > 0 { parts.append("\(state.sent) sent") }
            if state.waiting > 0 { parts.append("\(state.waiting) \(heldBy == nil ? "waiting" : "held back")") }
            if state.rejected > 0 { parts.append("\(state.rejected) rejected") }
            if state.held > 0 { parts.append("\(state.held) held back") }
            return "\(state.target) " + parts.joined(separator: ", ")
        }
        var line = "sync: " + each.joined(separator: " · ")
        if let heldBy, states.contains(where: { $0.waiting > 0 }) { line += "\n  held back from sync: \(heldBy)" }
        return line
    }
}
