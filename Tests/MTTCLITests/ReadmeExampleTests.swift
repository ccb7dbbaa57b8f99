import Foundation
import MTTCore
import TestSupport
import Testing

/// Every `mtt` command in the README's code blocks that needs no hardware and no account runs here,
/// in the README's order, in a home of its own, as a reader following the README runs them: the
/// README and the program cannot drift apart (issue 33).
///
/// What the test changes, and only that: durations become 3 s; port 8080 becomes a free one; a local
/// mosquitto on 1883 is one the test starts;
/// `http://my-server:8080` (your own server) is a loopback one; `/media/usb` is a folder of the
/// test's; `/etc/mtt/config.toml` is the one the package installs; `lorawalk.json` is the project's
/// own walk sample. The public servers stay as written: every https:// request goes through a
/// loopback proxy, which records where it was asked to go.
@Suite("The README's examples")
struct ReadmeExampleTests {
    struct Command: CustomStringConvertible {
        var line: Int
        var text: String
        var description: String { "README line \(line): \(text)" }
    }

    /// The `mtt` commands of the README's sh blocks, continuation lines joined, comments cut.
    static func commands(in readme: String) -> [Command] {
        var commands: [Command] = []
        var inShell = false, pending: Command?
        for (index, raw) in readme.components(separatedBy: "\n").enumerated() {
            if raw.hasPrefix("```") {
                inShell = !inShell && raw == "```sh"
                continue
            }
            guard inShell else { continue }
            let line = raw.trimmingCharacters(in: .whitespaces)
            if var command = pending {
                command.text += " " + line
                pending = nil
                if command.text.hasSuffix("\\") { command.text.removeLast(); pending = command } else { commands.append(command) }
                continue
            }
            guard line.hasPrefix("mtt ") else { continue }
            var command = Command(line: index + 1, text: withoutComment(line))
            if command.text.hasSuffix("\\") {
                command.text.removeLast()
                pending = command
            } else {
                commands.append(command)
            }
        }
        return commands.map { Command(line: $0.line, text: withoutComment($0.text).replacingOccurrences(of: "  ", with: " ")) }
    }

    /// The line up to a `#` that starts a shell comment (after a space, outside quotes).
    static func withoutComment(_ line: String) -> String {
        var quote: Character?
        var previous: Character = " "
        for (offset, c) in line.enumerated() {
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "'" || c == "\"" {
                quote = c
            } else if c == "#" && previous == " " {
                return String(line.prefix(offset)).trimmingCharacters(in: .whitespaces)
            }
            previous = c
        }
        return line.trimmingCharacters(in: .whitespaces)
    }

    /// Why a command cannot run here, or nil when it can.
    static func needs(_ command: String) -> String? {
        if command.contains("ble:") { return "a Bluetooth node" }
        if command.contains("serial:/dev/") { return "a USB modem" }
        if command.contains("--gps gpsd") { return "a GPS" }
        if command.contains("cloud.thethings.network") || command.contains("--mqtt-user") { return "an account on The Things Network" }
        return nil
    }

    @Test func everyCommandWithoutHardwareRunsAsWritten() async throws {
        let readme = try String(contentsOfFile: FixtureFiles.repositoryRoot + "/README.md", encoding: .utf8)
        let all = Self.commands(in: readme)
        let mtt = MTTCommand()
        let home = mtt.dir.path
        try FileManager.default.createDirectory(atPath: mtt.dir.file("usb"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: FixtureFiles.own("mapthethings/walk-sample.json"), toPath: mtt.dir.file("lorawalk.json"))

        let proxy = try ConnectProxy()
        let ownServer = try LoopbackHTTPServer { _ in .status(201, "{}") }
        let hooks = try LoopbackHTTPServer { _ in .status(200, "{}") }
        // The README's [[hooks]] block as the configuration, its ntfy topic a loopback server.
        let toml = try #require(readme.components(separatedBy: "```toml\n").dropFirst().map { $0.components(separatedBy: "```")[0] }.first { $0.contains("[[hooks]]") })
        try FileManager.default.createDirectory(atPath: mtt.dir.file("config/mtt"), withIntermediateDirectories: true)
        try toml.replacingOccurrences(of: "https://ntfy.sh/", with: hooks.baseURL + "/")
            .write(toFile: mtt.dir.file("config/mtt/config.toml"), atomically: true, encoding: .utf8)

        let port = LoopbackPort.free()
        var environment = mtt.environment
        environment["PATH"] = (BuiltProducts.path("mtt") as NSString).deletingLastPathComponent + ":/usr/bin:/bin"
        // What the README's `export MTT_MAPTHETHINGS_USER=…` line sets.
        environment["MTT_MAPTHETHINGS_USER"] = "my-twitter-name"
        environment["MTT_MAPTHETHINGS_TOKEN"] = "12345-AbCdEf"
        environment["MTT_MAPTHETHINGS_SECRET"] = "XyZ"
        environment["https_proxy"] = proxy.url
        environment["no_proxy"] = "127.0.0.1"

        // The reader's own local mosquitto (`mqtt://127.0.0.1:1883`), on a port of the test's.
        let broker = try await MosquittoBroker.start()

        var ran: [String] = [], skipped: [String] = [], failures: [String] = []
        for command in all {
            if let need = Self.needs(command.text) {
                skipped.append("line \(command.line) needs \(need)")
                continue
            }
            var text = command.text
                .replacingOccurrences(of: "http://my-server:8080", with: ownServer.baseURL)
                .replacingOccurrences(of: "8080", with: String(port))
                .replacingOccurrences(of: "mqtt://127.0.0.1:1883", with: "mqtt://127.0.0.1:\(broker.port)")
                .replacingOccurrences(of: "/media/usb", with: mtt.dir.file("usb"))
                .replacingOccurrences(of: "/etc/mtt/config.toml", with: FixtureFiles.repositoryRoot + "/packaging/config.toml")
                .replacingOccurrences(of: #"--duration [0-9]+[smh]"#, with: "--duration 3s", options: .regularExpression)
            if text == "mtt demo" { text += " --duration 3s" }
            if text == "mtt serve" { text += " --listen 127.0.0.1:\(port)" }
            let shell = ["-o", "pipefail", "-c", "cd '\(home)' && " + text]
            ran.append(text)
            if text.hasPrefix("mtt serve") {
                // Runs until stopped: it must say where the map is, then stop cleanly. Started by
                // exec, so the stop request reaches mtt, not a shell that may have forked it.
                let server = try ChildProcess.Running("/bin/bash", ["-c", "cd '\(home)' && exec " + text], environment: environment)
                let up = await server.waitForOutput(timeout: 20) { $0.contains("the map is at http://") }
                server.signal(SIGTERM)
                _ = await server.wait(timeout: 20)
                if !up || server.result.status != 0 {
                    failures.append("\(command): exit \(server.result.status), \(server.result.stderr.prefix(300))")
                }
                continue
            }
            let result = try await ChildProcess.run("/bin/bash", shell, environment: environment)
            if result.status != 0 {
                failures.append("\(command): exit \(result.status), \(result.stderr.prefix(300))")
            }
            if text == "mtt sync" {
                // After the README's simulated runs: nothing goes, and it says why in one line per target.
                #expect(result.stdout.contains("mapthethings: 0 sent") && result.stdout.contains("ttnmapper: 0 sent"), "\(result.stdout)")
                #expect(result.stdout.components(separatedBy: "of simulated sessions held back: never sent to a public map").count == 3, "\(result.stdout)")
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        // Enough ran that a README the parser misread cannot pass: the three modes' runs, status,
        // exports, import, reports, sessions, sync, events, config.
        #expect(ran.count >= 25, "ran only: \(ran)")
        #expect(skipped.count == all.count - ran.count)
        #expect(ran.contains { $0.hasPrefix("mtt collect --mode active --node fake:2") } && ran.contains("mtt sync") && ran.contains("mtt events --since 1d --hooks"), "\(ran)")
        // Nothing reached a public map, nor the reader's own server: every record was simulated or imported.
        #expect(proxy.targets.isEmpty, "asked to reach \(proxy.targets)")
        #expect(ownServer.requests.isEmpty, "\(ownServer.requests.map(\.path))")
        // The hook replay carries the map link.
        let posted = hooks.requests.filter { $0.path == "/my-mapper-7f3a" }
        #expect(!posted.isEmpty && posted.allSatisfy { $0.headers["click"]?.hasPrefix("http://raspberrypi.local:8080/#at=") ?? false },
                "\(posted.prefix(2).map(\.headers))")
    }
}
