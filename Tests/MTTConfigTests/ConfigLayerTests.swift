import MTTConfigFile
import MTTCore
import Testing

/// The configuration layer: the file, then the environment, then the command line, for every
/// setting; and problems reported where they were written.
@Suite("Configuration")
struct ConfigLayerTests {
    /// A setting's help is MTTCore's, shown in the configuration file's words and in every
    /// command's: it names what to give, never a command-line flag (issue 47, item 17: one named
    /// `--node fake[:N]`, another `mtt collect --help`).
    @Test func noSettingsHelpNamesAFlag() {
        for key in ConfigKey.all {
            #expect(!key.help.contains("--"), "\(key.name): \(key.help)")
        }
    }

    /// A value of the key's kind, different for each layer.
    static func sample(_ key: ConfigKey, _ layer: Int) -> (toml: String, env: String, value: ConfigValue) {
        switch key.kind {
        case .text, .secretFile:
            let text: String
            if let choices = key.choices { text = choices[layer % choices.count] } else { text = "layer-\(layer)" }
            return ("\"\(text)\"", text, .text(text))
        case .number:
            return ("\(layer * 10 + 1)", "\(layer * 10 + 1)", .number(Double(layer * 10 + 1)))
        case .duration:
            return ("\"\(layer + 2)m\"", "\(layer + 2)m", .number(Double((layer + 2) * 60)))
        case .list:
            return ("[\"item-\(layer)\"]", "item-\(layer)", .list(["item-\(layer)"]))
        case .flag:
            return (layer % 2 == 0 ? "true" : "false", layer % 2 == 0 ? "true" : "false", .flag(layer % 2 == 0))
        }
    }

    @Test(arguments: ConfigKey.all)
    func theCommandLineBeatsTheEnvironmentWhichBeatsTheFile(key: ConfigKey) throws {
        // A target's own keys sit one table deeper: [sync.file] path = ….
        let parts = key.name.split(separator: ".")
        let toml = "[\(parts.dropLast().joined(separator: "."))]\n\(parts.last!) = \(Self.sample(key, 0).toml)\n"
        let file = try TOMLConfigFile.parse(toml, path: "/etc/mtt/config.toml")
        let fromFile = try Config.resolve(file: file, environment: [:], flags: [:])
        // A secret's file named in the file is found beside the file.
        let inFile = key.kind == .secretFile ? .text("/etc/mtt/layer-0") : Self.sample(key, 0).value
        #expect(fromFile.value(key) == inFile)
        #expect(fromFile.source(key) == .file(path: "/etc/mtt/config.toml", line: 2))

        let environment = [key.environment: Self.sample(key, 1).env]
        let fromEnvironment = try Config.resolve(file: file, environment: environment, flags: [:])
        #expect(fromEnvironment.value(key) == Self.sample(key, 1).value)
        #expect(fromEnvironment.source(key) == .environment(key.environment))

        let fromFlag = try Config.resolve(file: file, environment: environment, flags: [key: Self.sample(key, 2).value])
        #expect(fromFlag.value(key) == Self.sample(key, 2).value)
        #expect(fromFlag.source(key) == .flag)

        let byDefault = try Config.resolve(file: nil, environment: [:], flags: [:])
        #expect(byDefault.value(key) == key.defaultValue)
    }

    @Test func problemsSayTheFileTheLineAndTheKey() throws {
        let toml = """
            # mtt
            [collect]
            mode = "active"

            min_intervall = "3s"
            """
        let unknown = try TOMLConfigFile.parse(toml, path: "/etc/mtt/config.toml")
        #expect(throws: ConfigError.self) { try Config.resolve(file: unknown, environment: [:], flags: [:]) }
        do { _ = try Config.resolve(file: unknown, environment: [:], flags: [:]) } catch {
            #expect(error.description.hasPrefix("/etc/mtt/config.toml:5: collect.min_intervall: unknown setting"))
        }
        for (text, line, message) in [
            ("[collect]\nmax_eph = \"far\"\n", 2, "collect.max_eph: must be a number, not far"),
            ("[collect]\nmode = \"passive\"\n", 2, "collect.mode: must be active or matching or listener, not passive"),
            ("\n[collect]\n\nmin_interval = \"soon\"\n", 4, "collect.min_interval: must be a length of time such as 12s, 10m or 2h, not soon"),
            ("[collect]\nnodes = [1, 2]\n", 2, "collect.nodes: a list of text in quotes"),
            ("[collect]\ngps = true\n", 2, "collect.gps: must be text in quotes, not true"),
            ("[collect]\nevery = \"0s\"\n", 2, "collect.every: must be a length of time above 0, not 0"),
            ("[sync]\nconnections = 0\n", 2, "sync.connections: must be a whole number from 1 to 64, not 0"),
            ("[sync]\ntries = 2.5\n", 2, "sync.tries: must be a whole number from 1 to 1000, not 2.5"),
            ("[sync]\ntarget = \"osm\"\n", 2, "sync.target: must be mapthethings or ttnmapper or file or postgis, not osm"),
            ("[serve]\nport = 8080\n", 2, "serve.port: unknown setting (this section has: serve.listen, serve.token_file, serve.tiles, serve.query_timeout)"),
            ("[[hooks]]\non = [\"lost\"]\ncommand = [\"true\"]\n\n[[hooks]]\non = [\"lost\"]\ncooldwn = \"1m\"\n", 7, "hooks[2].cooldwn: unknown setting"),
            ("[[hooks]]\non = [\"lost\"]\ncommand = [\"true\"]\n\n[[hooks]]\non = [\"coverage\"]\nurl = \"https://ntfy.sh/t\"\n", 6, "hooks[2].on: coverage is not an event type"),
            ("[alerts]\nbattery_low = 120\n", 2, "alerts.battery_low: must be a whole number from 0 to 100, not 120"),
        ] {
            do {
                _ = try Config.resolve(file: try TOMLConfigFile.parse(text, path: "c.toml"), environment: [:], flags: [:])
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.description.hasPrefix("c.toml:\(line): \(message)"), "\(error)")
            }
        }
        do {
            _ = try TOMLConfigFile.parse("[collect]\nmode = \n", path: "c.toml")
            Issue.record("broken TOML accepted")
        } catch {
            #expect(error.description.hasPrefix("c.toml:2: not TOML"), "\(error)")
        }
        do {
            _ = try Config.resolve(file: nil, environment: ["MTT_COLLECT_MAX_EPH": "-3"], flags: [:])
            Issue.record("a negative value accepted")
        } catch {
            #expect(error.description == "environment MTT_COLLECT_MAX_EPH: collect.max_eph: must be 0 or more, not -3")
        }
    }
}
