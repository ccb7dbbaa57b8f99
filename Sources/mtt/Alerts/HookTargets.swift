import Foundation
import MTTCore
import MTTHTTP
import MTTSystem

/// The adapter behind each kind of hook: a command (MTTSystem) or a webhook (MTTHTTP).
enum HookTargets {
    static func dispatcher(for rules: [HookRule]) throws -> HookDispatcher? {
        guard !rules.isEmpty else { return nil }
        let proxies = try ProxyConfiguration(environment: ProcessInfo.processInfo.environment)
        return HookDispatcher(rules: rules) { rule in
            switch rule.target {
            case .command(let arguments):
                return CommandHook(arguments: arguments, timeout: rule.timeout)
            case .webhook(let url, let text):
                // HookSettings took only what HTTPURLText reads as a URL.
                return WebhookHook(url: HTTPURLText.url(url)!, text: text, timeout: rule.timeout, proxies: proxies)
            }
        }
    }

    /// Gives the hooks `seconds` to take what they were offered, then ends the programs still
    /// running; says so in one line (`what` finishes it: "after the stop", "after the upload").
    /// The events stay in the database for `mtt events` either way.
    static func windDown(_ hooks: HookDispatcher, within seconds: Double, after what: String) async {
        guard await !hooks.settle(within: seconds) else { return }
        // Forget the waiting events first: ending a program would otherwise start the next.
        hooks.stop()
        CommandHook.stopAll()
        Console.error("mtt: hooks still busy \(seconds.plainText) s \(what) were ended (the events stay in the database: mtt events)")
    }

    /// A line per hook: what it did with the events it was offered.
    static func report(_ hooks: HookDispatcher) -> [String] {
        hooks.counts.map { rule, c in
            var line = "hook \(rule.name) (\(rule.target)): \(c.delivered) delivered"
            if c.failed > 0 { line += ", \(c.failed) failed" }
            if c.dropped > 0 { line += ", \(c.dropped) dropped (queue full)" }
            let held = [(c.coolingDown, "in cooldown"), (c.muted, "muted"), (c.rateLimited, "over the rate limit")].filter { $0.0 > 0 }
            if !held.isEmpty { line += "; held back: " + held.map { "\($0.0) \($0.1)" }.joined(separator: ", ") }
            return line
        }
    }
}
