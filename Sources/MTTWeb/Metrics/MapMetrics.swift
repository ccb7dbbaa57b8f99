import MTTCore
import Prometheus

/// `/metrics` in the Prometheus text format, for a fleet watched in Grafana: the database's counts
/// and upload queues, each node's state and reconnects, and the run's own figures while one runs.
/// Read at each scrape (the store is the truth; nothing is counted twice). Prometheus computes
/// rates from these with `rate()`.
final class MapMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()

    func text(for status: LiveStatus) -> String {
        let s = status.store
        gauge("mtt_sessions", "Collection sessions and imports in the database").set(s.sessions)
        gauge("mtt_attempts", "Transmit attempts (active mode), any state").set(s.attempts)
        gauge("mtt_attempts_confirmed", "Attempts the node reported as sent").set(s.confirmed)
        gauge("mtt_attempts_failed", "Attempts that failed or got no result").set(s.failed)
        gauge("mtt_attempts_pending", "Attempts waiting for their result").set(s.pending)
        gauge("mtt_attempts_heard", "Attempts the network was seen to receive").set(s.heard)
        gauge("mtt_uplinks", "Uplinks the network reported").set(s.uplinks)
        gauge("mtt_gps_fixes", "Fixes stored in tracks").set(s.gpsSamples)
        gauge("mtt_samples", "Samples with a position").set(s.samples)
        if let loss = s.lossPercent { gauge("mtt_loss_percent", "Share of resolved attempts nobody heard").set(loss) }
        for (target, count) in s.unsynced {
            gauge("mtt_upload_queue", "Records an upload target still waits for", ["target": target]).set(count)
        }
        for (target, count) in s.held {
            gauge("mtt_upload_held", "Records the TTN Mapper quality gate holds back", ["target": target]).set(count)
        }
        for node in s.nodes {
            gauge("mtt_node_connected", "1 while the node is reachable, 0 while mtt reconnects it", ["node": node.node]).set(node.state == .connected ? 1 : 0)
            gauge("mtt_node_reconnects", "Times the node came back after a loss in its session", ["node": node.node]).set(node.reconnects)
        }
        gauge("mtt_run_active", "1 while a collection runs in this process").set(status.run == nil ? 0 : 1)
        return registry.emitToString()
    }

    private func gauge(_ name: String, _ help: String, _ labels: [String: String] = [:]) -> Gauge {
        registry.makeGauge(
            descriptor: MetricNameDescriptor(namespace: "mtt", metricName: String(name.dropFirst("mtt_".count)), unitName: "", helpText: help),
            labels: labels.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }
}

private extension Gauge {
    func set(_ value: Int) { set(Double(value)) }
}
