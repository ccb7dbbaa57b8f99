import Foundation
import MTTCore
import TestSupport
import Testing

@Suite("mtt command line")
struct CommandLineContractTests {
    let mtt = MTTCommand()

    @Test func helpListsEveryCommand() async throws {
        let result = try await mtt.run(["--help"])
        #expect(result.status == 0)
        for command in ["collect", "status", "sync", "export", "import", "gps", "scan", "node", "fake-node", "demo"] {
            #expect(result.stdout.contains("\n  \(command) "), "help does not list \(command)")
        }
    }

    /// Issue 33, item 15: help that answers a stranger's first questions.
    @Test func helpSaysWhereTheDatabaseIsAndWhatFakeAndIntervalMean() async throws {
        let top = try await mtt.run(["--help"])
        #expect(top.stdout.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "  ", with: " ")
            .contains("The database is --db, else $MTT_DB, else [db] path in the configuration file, else ~/.local/share/mtt/mtt.sqlite"), "\(top.stdout)")
        let shown = try await mtt.run(["config", "show"])
        #expect(shown.stdout.contains("db.path") && shown.stdout.contains("/mtt/mtt.sqlite\"   # default"), "\(shown.stdout)")
        let collect = try await mtt.run(["collect", "--help"])
        let text = collect.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(text.contains("fake: simulated gateways that hear this run's emulated nodes (--node fake[:N], fake-KIND) and nothing else"), "\(text)")
        #expect(text.contains("default 5 s in matching mode, 1 s in listener mode"), "\(text)")
        #expect(text.contains("real time, also under --speed"), "\(text)")
    }

    @Test func versionPrintsTheVersion() async throws {
        let result = try await mtt.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
    }

    @Test func statusJSONOnANewDatabaseIsAllZero() async throws {
        _ = try Store(path: mtt.database)
        let result = try await mtt.run(["status", "--db", mtt.database, "--json"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        for key in ["attempts", "confirmed", "failed", "heard", "uplinks", "gps_samples"] {
            #expect(object[key] as? Int == 0, "\(key) is \(String(describing: object[key]))")
        }
        let unsynced = try #require(object["unsynced"] as? [String: Int])
        #expect(unsynced == ["mapthethings": 0, "ttnmapper": 0])
    }

    @Test func statusTextNamesTheDatabase() async throws {
        _ = try Store(path: mtt.database)
        let result = try await mtt.run(["status", "--db", mtt.database])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Database   \(mtt.database)"))
        #expect(result.stdout.contains("Attempts   0"))
    }

    @Test func databaseComesFromMTT_DBThenXDG() async throws {
        // Commands that record create the database where the environment says.
        let fromEnv = mtt.dir.file("env/field.sqlite")
        let nmea = mtt.dir.file("one.nmea")
        try Data("$GPRMC,101500.00,A,5205.4420,N,00507.2840,E,0.0,0.0,210626,,,A*56\n".utf8).write(to: URL(fileURLWithPath: nmea))
        let record = ["collect", "--mode", "matching", "--network", "fake", "--gps", "nmea:" + nmea, "--duration", "1s", "--json"]
        #expect(try await mtt.run(record, environment: ["MTT_DB": fromEnv]).status == 0)
        #expect(FileManager.default.fileExists(atPath: fromEnv))
        #expect(try await mtt.run(["status"], environment: ["MTT_DB": fromEnv]).stdout.contains(fromEnv))

        #expect(try await mtt.run(record).status == 0)
        let result = try await mtt.run(["status"])
        #expect(result.status == 0)
        #expect(result.stdout.contains(mtt.dir.file("xdg/mtt/mtt.sqlite")))
        #expect(FileManager.default.fileExists(atPath: mtt.dir.file("xdg/mtt/mtt.sqlite")))
    }

    @Test func aNonSQLiteDatabaseFileIsOneLineAndExit1AndUntouched() async throws {
        let path = mtt.dir.file("photo.jpg")
        let bytes = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try bytes.write(to: URL(fileURLWithPath: path))
        let result = try await mtt.run(["status", "--db", path])
        #expect(result.status == 1)
        #expect(result.stderr == "mtt: \(path) is not an SQLite database; mtt left it untouched (check --db, MTT_DB or [db] path)\n")
        #expect(result.stdout.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func commandsThatCannotRunSaySoAndExit1() async throws {
        let result = try await mtt.run(["node", "disconnect", "--node", "fake-rn2483"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("mtt: "))
        #expect(result.stderr.contains("there is no link to drop"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func usageErrorsExit64() async throws {
        #expect(try await mtt.run(["status", "--no-such-option"]).status == 64)
        #expect(try await mtt.run(["collect", "--mode", "sideways"]).status == 64)
        #expect(try await mtt.run(["no-such-command"]).status == 64)
    }

    @Test func demoRunsActiveModeOnFakesAndShowsItsDatabase() async throws {
        let demoDB = mtt.dir.file("demo.sqlite")
        let result = try await mtt.run(["demo", "--db", demoDB, "--duration", "3s"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.hasPrefix("mtt demo: 3s of active mapping with a fake node"))
        #expect(result.stdout.contains("attempt 1 by fake:1"))
        #expect(result.stdout.contains("Database   \(demoDB)"))
        // Where it wrote, and how to look at it afterwards: the main database is not the demo's.
        #expect(result.stdout.contains("The demo wrote to \(demoDB)") && result.stdout.contains("mtt sessions --db \(demoDB)"), "\(result.stdout)")
        let sessions = try await mtt.run(["sessions", "--db", demoDB])
        #expect(sessions.stdout.contains("[simulated]"), "\(sessions.stdout)")
        let status = try Store(path: demoDB).status()
        #expect(status.attempts >= 1 && status.confirmed >= 1 && status.gpsSamples > 10)
    }
}

/// The configuration as a user meets it: the shipped file checks, `config show` says where each
/// value comes from and never prints a secret, and `collect` runs from the file alone.
@Suite("mtt config")
struct ConfigCommandTests {
    let mtt = MTTCommand()

    @Test func theShippedConfigurationChecksAndShowsWhereEachValueComesFrom() async throws {
        let shipped = FixtureFiles.repositoryRoot + "/packaging/config.toml"
        let check = try await mtt.run(["config", "check", "--config", shipped])
        #expect(check.status == 0 && check.stdout == "\(shipped): ok\n", "\(check.stderr)")
        let show = try await mtt.run(["config", "show", "--config", shipped], environment: ["MTT_COLLECT_GPS": "fake", "MTT_MQTT_PASSWORD": "NNSXS.SECRET-KEY"])
        #expect(show.stdout.contains(#"collect.gps                = "fake"   # environment MTT_COLLECT_GPS"#), "\(show.stdout)")
        #expect(show.stdout.contains(#"collect.mode               = "active"   # \#(shipped):12"#), "\(show.stdout)")
        #expect(show.stdout.contains("collect.min_interval       = 12s   # default"))
        #expect(!show.stdout.contains("SECRET"))
        let bad = mtt.dir.file("bad.toml")
        try "[collect]\nmode = \"active\"\nspeed = 3\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try await mtt.run(["config", "check", "--config", bad])
        #expect(refused.status == 1 && refused.stderr.hasPrefix("mtt: \(bad):3: collect.speed: unknown setting"), "\(refused.stderr)")
    }

    @Test func everyCommandReadsItsSectionAndTheDatabaseFromTheFile() async throws {
        _ = try Store(path: mtt.database)
        let file = mtt.dir.file("mtt.toml")
        try """
            [db]
            path = "\(mtt.database)"

            [sync]
            url = "ftp://map.example"
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let status = try await mtt.run(["status", "--config", file])
        #expect(status.status == 0 && status.stdout.contains("Database   \(mtt.database)"), "\(status.stdout)\(status.stderr)")
        let sync = try await mtt.run(["sync", "--config", file])
        #expect(sync.status == 1 && sync.stderr == "mtt: \(file):5: sync.url: takes an http:// or https:// URL, not ftp://map.example\n", "\(sync.stderr)")
        let check = try await mtt.run(["config", "check", "--config", file])
        #expect(check.status == 1 && check.stderr == sync.stderr, "\(check.stderr)")
        // The environment names itself; a flag is a usage error named as it is written.
        let fetch = try await mtt.run(["fetch", "--config", file], environment: ["MTT_FETCH_SINCE": "yesterday"])
        #expect(fetch.status == 1 && fetch.stderr.hasPrefix("mtt: environment MTT_FETCH_SINCE: fetch.since: takes an RFC 3339 time"), "\(fetch.stderr)")
        let flag = try await mtt.run(["sync", "--config", file, "--connections", "100"])
        #expect(flag.status == 64 && flag.stderr.hasPrefix("Error: --connections must be a whole number from 1 to 64, not 100"), "\(flag.stderr)")
        let serve = try await mtt.run(["serve", "--config", file], environment: ["MTT_SERVE_LISTEN": "127.0.0.1:http"])
        #expect(serve.status == 1 && serve.stderr.hasPrefix("mtt: environment MTT_SERVE_LISTEN: serve.listen: takes HOST:PORT"), "\(serve.stderr)")
    }

    @Test func collectRunsFromTheFileAndTheCommandLineWins() async throws {
        let file = mtt.dir.file("mtt.toml")
        try """
            [db]
            path = "\(mtt.database)"
            [collect]
            mode = "active"
            nodes = ["fake"]
            gps = "fake"
            network = "fake"
            min_interval = "1h"
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let run = try await mtt.run(["collect", "--config", file, "--speed", "20", "--duration", "4s", "--min-interval", "2s", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let store = try Store(path: mtt.database)
        let session = try #require(try store.sessions.session(1))
        #expect(session.mode == .active && session.nodes == "fake")
        // An hour between sends from the file would have allowed one; the flag's 2 s allowed more
        // (how many more depends on how busy the machine is: two is enough to tell).
        #expect(try store.status().attempts >= 2)
    }
}
