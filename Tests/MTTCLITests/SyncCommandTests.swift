import Foundation
import MTTCore
import TestSupport
import Testing

@Suite("mtt sync")
struct SyncCommandTests {
    let mtt = MTTCommand()
    let login = ["MTT_MAPTHETHINGS_USER": "alice", "MTT_MAPTHETHINGS_TOKEN": "tok-SECRET-1", "MTT_MAPTHETHINGS_SECRET": "sec-SECRET-2"]

    func unsynced() async throws -> [String: Int] {
        let result = try await mtt.run(["status", "--db", mtt.database, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return object?["unsynced"] as? [String: Int] ?? [:]
    }

    @Test func uploadsWithCredentialsFromTheEnvironmentAndNeverPrintsThem() async throws {
        try SyncTestData.addConfirmedAttempts(5, to: Store(path: mtt.database))
        let server = try LoopbackHTTPServer { _ in .status(201, "{}") }
        let result = try await mtt.run(["sync", "--target", "mapthethings", "--url", server.baseURL, "--db", mtt.database], environment: login)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("mapthethings: 5 sent, 0 rejected, 0 failed, 0 still queued"), "\(result.stdout)")
        #expect(server.requests.count == 5)
        #expect(server.requests.allSatisfy { $0.headers["authorization"]?.contains(#"token="tok-SECRET-1""#) == true })
        for text in [result.stdout, result.stderr] {
            #expect(!text.contains("SECRET"), "a secret was printed: \(text)")
        }
        #expect(try await unsynced()["mapthethings"] == 0)

        let again = try await mtt.run(["sync", "--target", "mapthethings", "--url", server.baseURL, "--db", mtt.database], environment: login)
        #expect(again.status == 0)
        #expect(again.stdout.contains("mapthethings: 0 sent"))
        #expect(server.requests.count == 5)
    }

    /// Issue 33, item 9: listener samples a MapTheThings server has no /samples for.
    @Test func aServerWithoutSamplesFailsTheRunThatFindsOutThenStopsCountingThem() async throws {
        let store = try Store(path: mtt.database)
        try SyncTestData.addConfirmedAttempts(2, to: store)
        try SyncTestData.addListenerSamples(3, to: store)
        let server = try LoopbackHTTPServer { request in
            request.path == "/api/v0/transmissions" ? .status(201, "{}") : .status(404, "Not Found")
        }
        let sync = ["sync", "--target", "mapthethings", "--url", server.baseURL, "--db", mtt.database]
        let first = try await mtt.run(sync, environment: login)
        #expect(first.status == 1, "\(first.stdout)\n\(first.stderr)")
        #expect(first.stdout.contains("3 samples stay queued: this server does not accept listener samples (HTTP 404 for /api/v0/samples)"), "\(first.stdout)")
        #expect(first.stderr.contains("mtt: mapthethings: 3 samples stay queued"), "\(first.stderr)")

        let status = try await mtt.run(["status", "--db", mtt.database])
        #expect(status.stdout.contains("To upload  mapthethings 0"), "\(status.stdout)")
        #expect(status.stdout.contains("Not taken  mapthethings 3, not sent again: \(server.baseURL): this server does not accept listener samples"), "\(status.stdout)")

        // The dry run says what the sync would do: nothing for that server.
        let dry = try await mtt.run(sync + ["--dry-run"], environment: login)
        #expect(dry.stdout.contains("mapthethings: nothing to send"), "\(dry.stdout)")

        let asked = server.requests.count
        let second = try await mtt.run(sync, environment: login)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("3 samples not sent: \(server.baseURL) does not take them"), "\(second.stdout)")
        #expect(server.requests.count == asked)
    }

    @Test func httpsTrustsTheCAGivenWithCAAndRefusesAnUnknownOne() async throws {
        try SyncTestData.addConfirmedAttempts(4, to: Store(path: mtt.database))
        let server = try LoopbackHTTPServer { _ in .status(201, "{}") }
        let keys = TemporaryDirectory("mtt-cli-tls")
        let certificates = try await TestCertificates.make(in: keys)
        let front = try await TLSFront.start(certificates: certificates, backendPort: server.port)
        let sync = ["sync", "--target", "mapthethings", "--url", front.baseURL, "--db", mtt.database]

        let refused = try await mtt.run(sync, environment: login)
        #expect(refused.status == 1)
        let lastLine = refused.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(lastLine.hasPrefix("mtt: mapthethings: TLS with 127.0.0.1:\(front.port) failed: "), "\(refused.stderr)")
        #expect(lastLine.hasSuffix("4 record(s) stay queued"))
        #expect(server.requests.isEmpty)

        let trusted = try await mtt.run(sync + ["--ca", certificates.caCertificate], environment: login)
        #expect(trusted.status == 0, "stderr: \(trusted.stderr)")
        #expect(trusted.stdout.contains("mapthethings: 4 sent, 0 rejected, 0 failed, 0 still queued"), "\(trusted.stdout)")
        #expect(server.requests.count == 4)
        #expect(try await unsynced()["mapthethings"] == 0)
        withExtendedLifetime(keys) {}
    }

    @Test func refusedCredentialsExitOneAndLeaveEverythingQueued() async throws {
        try SyncTestData.addConfirmedAttempts(5, to: Store(path: mtt.database))
        let server = try LoopbackHTTPServer { _ in .status(401, "") }
        let result = try await mtt.run(["sync", "--target", "mapthethings", "--url", server.baseURL, "--db", mtt.database], environment: login)
        #expect(result.status == 1)
        let lastLine = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(lastLine.hasPrefix("mtt: mapthethings: MapTheThings at \(server.baseURL) refused the credentials of alice (HTTP 401)"), "\(result.stderr)")
        #expect(lastLine.hasSuffix("5 record(s) stay queued"))
        #expect(!result.stderr.contains("SECRET") && !result.stdout.contains("SECRET"))
        #expect(try await unsynced()["mapthethings"] == 5)
    }

    @Test func aCredentialsFileMustBeReadableByItsOwnerOnly() async throws {
        try SyncTestData.addConfirmedAttempts(2, to: Store(path: mtt.database))
        let server = try LoopbackHTTPServer { _ in .status(201, "{}") }
        let file = mtt.dir.file("mapthethings.credentials")
        try "# MapTheThings\nuser = alice\ntoken = tok-SECRET-1\nsecret = \"sec-SECRET-2\"\n".write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o644)
        let open = try await mtt.run(["sync", "--target", "mapthethings", "--url", server.baseURL, "--credentials", file, "--db", mtt.database])
        #expect(open.status == 1)
        #expect(open.stderr.contains("others can read it: run chmod 600 \(file)"), "\(open.stderr)")
        #expect(server.requests.isEmpty)

        chmod(file, 0o600)
        let ok = try await mtt.run(["sync", "--target", "mapthethings", "--url", server.baseURL, "--credentials", file, "--db", mtt.database])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(server.requests.first?.headers["authorization"] == #"TwitterAuth username="alice" token="tok-SECRET-1" token-secret="sec-SECRET-2" realm="api""#)
    }

    @Test func missingCredentialsSayWhereToPutThem() async throws {
        try SyncTestData.addConfirmedAttempts(1, to: Store(path: mtt.database))
        let result = try await mtt.run(["sync", "--target", "mapthethings", "--url", "http://127.0.0.1:9", "--db", mtt.database])
        #expect(result.status == 1)
        #expect(result.stderr.contains("1 record(s) wait for MapTheThings but there are no credentials: set MTT_MAPTHETHINGS_USER"), "\(result.stderr)")
    }

    @Test func ttnMapperKeepsOneUserIDAndReportsJSON() async throws {
        let store = try Store(path: mtt.database)
        try SyncTestData.addListenerSamples(2, to: store)
        let server = try LoopbackHTTPServer { _ in .status(200, #"{"success":true}"#) }
        let url = server.baseURL + "/android/v4"
        let first = try await mtt.run(["sync", "--target", "ttnmapper", "--url", url, "--db", mtt.database, "--json"])
        #expect(first.status == 0, "\(first.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
        #expect(summary["target"] as? String == "ttnmapper")
        #expect(summary["sent"] as? Int == 2 && summary["rejected"] as? Int == 0 && summary["failed"] as? Int == 0)
        #expect(summary["queued"] as? Int == 0)

        try SyncTestData.addListenerSamples(1, to: store)
        let second = try await mtt.run(["sync", "--target", "ttnmapper", "--url", url, "--db", mtt.database])
        #expect(second.status == 0)
        #expect(second.stdout.contains("ttnmapper: 1 sent"))
        let ids = Set(server.requests.compactMap { $0.json?["userid"] as? String })
        #expect(ids.count == 1, "user ids: \(ids)")
        #expect(ids.first?.hasPrefix("mtt-") == true)
        #expect(server.requests.allSatisfy { $0.json?["useragent"] as? String == "mtt/\(MTTVersion.current)" })

        // Each upload is a sync_done event, of no session, with what it did (a hook hears it too).
        let events = try await mtt.run(["events", "--type", "sync_done", "--db", mtt.database])
        let done = events.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(done.count == 2 && done.allSatisfy { $0["target"] as? String == "ttnmapper" && $0["session"] is NSNull }, "\(events.stdout)")
        #expect(done.map { $0["sent"] as? Int } == [2, 1])
        #expect(try await EventSchema.problems(events.stdout.split(separator: "\n").map(String.init)).isEmpty)
    }

    @Test func statusListsWhyARecordWasRejected() async throws {
        try SyncTestData.addConfirmedAttempts(2, to: Store(path: mtt.database))
        let server = try LoopbackHTTPServer { request in
            (request.json?["msg_seq"] as? Int) == 161 ? .status(400, "Invalid latitude/longitude") : .status(201, "{}")
        }
        let before = try await mtt.run(["status", "--reasons", "--db", mtt.database])
        #expect(before.stdout.hasSuffix("\nNo record was rejected or held back, and the next sync holds none back.\n"), "\(before.stdout)")

        let sync = try await mtt.run(["sync", "--target", "mapthethings", "--url", server.baseURL, "--db", mtt.database], environment: login)
        #expect(sync.stdout.contains("mapthethings: 1 sent, 1 rejected"), "\(sync.stdout)")
        #expect(sync.stdout.contains("  mtt status --reasons lists which records and why\n"), "\(sync.stdout)")

        let text = try await mtt.run(["status", "--reasons", "--db", mtt.database])
        #expect(text.status == 0)
        #expect(text.stdout.hasSuffix("\nRejected by mapthethings, newest first:\n  attempt 2: HTTP 400: Invalid latitude/longitude\n"), "\(text.stdout)")
        let plain = try await mtt.run(["status", "--db", mtt.database])
        #expect(!plain.stdout.contains("Rejected"))

        let json = try await mtt.run(["status", "--reasons", "--json", "--db", mtt.database])
        let lines = json.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.count == 2)
        #expect(lines.first??["unsynced"] != nil)
        let reason = try #require(lines.last ?? nil)
        #expect(reason["target"] as? String == "mapthethings" && reason["state"] as? String == "rejected")
        #expect(reason["kind"] as? String == "attempt" && reason["record_id"] as? Int == 2)
        #expect(reason["message"] as? String == "HTTP 400: Invalid latitude/longitude")
    }

    /// Issue 33, item 8: what the quality gate will hold, said before the sync that holds it.
    @Test func statusReasonsSaysWhatTheNextSyncHoldsBack() async throws {
        let store = try Store(path: mtt.database)
        // Three samples on 17.1 m fixes, one on a good one.
        try SyncTestData.addListenerSamples(4, to: store) { n in n == 0 ? (9, 0.9, 4.2) : (9, 0.9, 17.1) }
        let text = try await mtt.run(["status", "--reasons", "--db", mtt.database])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("The next sync to ttnmapper holds back 3 waiting records, newest first (the quality gate's go to an --experiment):\n  sample "), "\(text.stdout)")
        #expect(text.stdout.contains(": accuracy 17.1 m (needs ≤ 15 m)"), "\(text.stdout)")

        let server = try LoopbackHTTPServer { _ in .status(200, #"{"success":true}"#) }
        let sync = try await mtt.run(["sync", "--target", "ttnmapper", "--url", server.baseURL, "--db", mtt.database])
        #expect(sync.stdout.contains("ttnmapper: 1 sent, 0 rejected, 0 failed, 3 held back (mtt status --reasons says why)"), "\(sync.stdout)")
        // Held now: said as held, no longer as what the next sync would do.
        let after = try await mtt.run(["status", "--reasons", "--db", mtt.database])
        #expect(after.stdout.contains("Held back from ttnmapper, newest first") && !after.stdout.contains("The next sync"), "\(after.stdout)")
    }

    @Test func aURLWithoutATargetMeansMapTheThingsOnly() async throws {
        let store = try Store(path: mtt.database)
        try SyncTestData.addListenerSamples(1, to: store)
        let server = try LoopbackHTTPServer { _ in .status(201, "{}") }
        let result = try await mtt.run(["sync", "--url", server.baseURL, "--db", mtt.database], environment: login)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("only MapTheThings is synced (--url without --target)"), "\(result.stderr)")
        #expect(server.requests.map(\.path) == ["/api/v0/samples"])
        #expect(try await unsynced() == ["mapthethings": 0, "ttnmapper": 1])
    }

    /// The default credentials file is under $HOME (the account's home only when HOME is unset).
    @Test func theDefaultCredentialsFileFollowsHOME() async throws {
        try SyncTestData.addConfirmedAttempts(2, to: Store(path: mtt.database))
        let server = try LoopbackHTTPServer { _ in .status(201, "{}") }
        let home = mtt.dir.file("elsewhere")
        try FileManager.default.createDirectory(atPath: home + "/.config/mtt", withIntermediateDirectories: true)
        let file = home + "/.config/mtt/mapthethings"
        try "user = bob\ntoken = t\nsecret = s\n".write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o600)
        let result = try await mtt.run(
            ["sync", "--target", "mapthethings", "--url", server.baseURL, "--db", mtt.database],
            environment: ["HOME": home, "XDG_CONFIG_HOME": ""])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requests.count == 2)
    }

    /// A failure is said once, in the closing line.
    @Test func aFailureIsPrintedOnce() async throws {
        try SyncTestData.addConfirmedAttempts(2, to: Store(path: mtt.database))
        let result = try await mtt.run(["sync", "--target", "mapthethings", "--db", mtt.database])
        #expect(result.status == 1)
        #expect(result.stderr.components(separatedBy: "there are no credentials").count == 2, "\(result.stderr)")
    }

    @Test func nothingToUploadNeedsNoCredentialsAndExitsZero() async throws {
        _ = try Store(path: mtt.database)
        let result = try await mtt.run(["sync", "--db", mtt.database])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "mapthethings: 0 sent, 0 rejected, 0 failed, 0 still queued\nttnmapper: 0 sent, 0 rejected, 0 failed, 0 still queued\n")
    }

    @Test func badOptionsAreUsageErrors() async throws {
        for arguments in [["--url", "ftp://x"], ["--target", "mapthethings", "--experiment", "x"], ["--connections", "0"], ["--ca", "/nonexistent/ca.pem"]] {
            let result = try await mtt.run(["sync", "--db", mtt.database] + arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
        }
    }
}
