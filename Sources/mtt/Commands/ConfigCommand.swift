import ArgumentParser
import Foundation
import MTTCore
import MTTMQTT

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show or check the configuration: the file, then the environment, then the command line.",
        discussion: """
            The file is TOML, one section per command ([db], [collect], [sync], [fetch], [serve]), \
            [alerts] and [[hooks]] (docs/events.md); \
            each setting can also be set in the environment (MTT_DB, MTT_COLLECT_MODE, \
            MTT_SYNC_TARGET, …) and on the command line, which wins. Secrets are never in it: it \
            names the file that holds one (mqtt_password_file, credentials_file, api_key_file, \
            token_file; mode 600). Every command that opens the database reads the file too \
            (--config, or the default), so [db] path is the database of status, serve and sync.
            """,
        subcommands: [Show.self, Check.self])

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print every setting in effect and where it comes from.")

        @OptionGroup var config: ConfigOptions

        func run() throws {
            let settings = try config.resolve(flags: [:])
            if let path = config.path { Console.out("# \(path)") } else { Console.out("# no configuration file: defaults and the environment") }
            let width = ConfigKey.all.map(\.name.count).max() ?? 0
            for (key, value, source) in settings.shown {
                Console.out(key.name.padding(toLength: width, withPad: " ", startingAt: 0) + " = \(value)   # \(source)")
            }
            for hook in settings.hooks {
                var line = "\(hook.name): on \(hook.types.map(\.rawValue).sorted().joined(separator: ", ")) -> \(hook.target)"
                if hook.cooldown > 0 { line += ", cooldown \(hook.cooldown.plainText)s" }
                if let limit = hook.rateLimit { line += ", at most \(limit) per \(hook.ratePeriod.plainText)s" }
                if !hook.mute.isEmpty { line += ", muting \(hook.mute.sorted().joined(separator: ", "))" }
                Console.out(line)
            }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Check the configuration; exit 0 when every setting can be used, 1 with the first problem.")

        @OptionGroup var config: ConfigOptions

        func run() throws {
            let settings = try config.resolve(flags: [:])
            if let gps = settings.text(.gps) {
                do { _ = try FixSourceKind.spec(gps) } catch { throw settings.refuse(.gps, "\(error)") }
            }
            if let network = settings.text(.network) {
                do { _ = try NetworkChoice(parsing: network) } catch { throw settings.refuse(.network, "\(error)") }
            }
            for text in settings.list(.nodes) {
                do { _ = try NodeKind.spec(text) } catch { throw settings.refuse(.nodes, "\(error)") }
            }
            if let url = settings.text(.mqttURL) {
                do { _ = try MQTTEndpoint(parsing: url) } catch { throw settings.refuse(.mqttURL, "\(error)") }
            }
            if let web = settings.text(.web) { try MapServing(listen: web).check(settings, listen: .web, tiles: nil) }
            do { _ = try settings.payloadPositioning() } catch { throw ConfigOptions.failure(error) }
            _ = try Sync.checked(settings)
            _ = try StoredUplinkFetchOptions().resolved(settings)
            _ = try MapServing.served(by: settings)
            // The service would fail on a secret it cannot read, or refuse one others can.
            for key in ConfigKey.all where key.kind == .secretFile {
                guard let file = settings.text(key) else { continue }
                do { _ = try SecretInput.contents(of: file, what: "a secret") } catch { throw settings.refuse(key, "\(error)") }
            }
            Console.out("\(config.path ?? "the defaults and the environment"): ok")
        }
    }
}
