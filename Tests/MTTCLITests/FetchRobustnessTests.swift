import Foundation
import MTTCore
import MTTMQTT
import TestSupport
import Testing

/// `mtt fetch` against servers that answer badly (issue 34, items 1 to 3): garbage is never taken
/// for success, a trickling answer is bound by --timeout, and a stop request ends any fetch or
/// wait at once, keeping what was stored.
@Suite("mtt fetch against bad servers")
struct FetchRobustnessTests {
    let mtt = MTTCommand()
    static let key = ["MTT_TTN_API_KEY": "NNSXS.TEST-KEY"]

    var fetchedAt: Timestamp? { (try? Store(path: mtt.database, access: .readOnly).sessions.session(1))??.fetchedAt }

    /// Answers that are not stored uplinks, named for the test's log (the answers themselves are
    /// up to 10 MB).
    enum Garbage: String, CaseIterable, CustomStringConvertible {
        case loginPage = "a proxy's login page", oneLongLine = "10 MB on one line", notUTF8 = "bytes that are not UTF-8", cutShort = "an answer cut short"

        var description: String { rawValue }

        var answer: LoopbackHTTPServer.Action {
            switch self {
            case .loginPage: .status(200, "<!doctype html><html><body>Sign in to the Wi-Fi</body></html>")
            case .oneLongLine: .status(200, String(repeating: "x", count: 10 << 20))
            case .notUTF8: .raw(Data("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\n".utf8) + Data([0xFF, 0xFE, 0x80, 0x81, 0xC0, 0x0A]))
            case .cutShort: .status(200, #"{"result":"#)
            }
        }
    }

    @Test(arguments: Garbage.allCases)
    func garbageIsAnErrorAndTheSessionIsNotMarkedFetched(what: Garbage) async throws {
        let storage = try await mtt.offlineListenerRun()
        storage.behave { $0.answer = what.answer }
        let fetch = try await mtt.run(["fetch", "--ttn-url", storage.baseURL, "--db", mtt.database], environment: Self.key)
        #expect(fetch.status == 1, "\(what): \(fetch.stdout) \(fetch.stderr)")
        #expect(fetch.stderr.contains("answered with no stored uplinks, only text that is not"), "\(what): \(fetch.stderr)")
        #expect(fetchedAt == nil, "\(what): the session was marked fetched")
        // The server mends: the next fetch reads the session whole and marks it.
        storage.behave { $0.answer = nil }
        let again = try await mtt.run(["fetch", "--ttn-url", storage.baseURL, "--db", mtt.database], environment: Self.key)
        #expect(again.status == 0 && again.stdout.contains("3 new"), "\(what): \(again.stdout) \(again.stderr)")
        #expect(fetchedAt != nil)
    }

    @Test func anAnswerWithSomeBrokenLinesStoresTheRestButIsNotAComplete() async throws {
        let storage = try await mtt.offlineListenerRun()
        storage.behave { $0.brokenEvery = 2 }
        let fetch = try await mtt.run(["fetch", "--ttn-url", storage.baseURL, "--db", mtt.database], environment: Self.key)
        #expect(fetch.status == 1, "\(fetch.stdout)")
        #expect(fetch.stdout.contains("3 new") && fetch.stdout.contains("1 broken line(s) skipped"), "\(fetch.stdout)")
        #expect(fetch.stderr.contains("1 broken line(s) in the answer; what could be read is stored, fetch again for the rest"), "\(fetch.stderr)")
        #expect(fetchedAt == nil)
        #expect(try Store(path: mtt.database).status().uplinks == 3)
    }

    @Test func aTricklingAnswerEndsAtTheTimeout() async throws {
        let storage = try await mtt.offlineListenerRun()
        storage.behave { $0.answer = .trickle(seconds: 0.5) }
        let started = ContinuousClock.now
        let fetch = try await mtt.run(["fetch", "--ttn-url", storage.baseURL, "--timeout", "3s", "--db", mtt.database], environment: Self.key)
        let took = (ContinuousClock.now - started) / .seconds(1)
        #expect(fetch.status == 1, "\(fetch.stdout) \(fetch.stderr)")
        #expect(fetch.stderr.contains("3 s"), "\(fetch.stderr)")
        // The whole answer is bound by --timeout, not each byte of it (which never stopped).
        #expect(took < 30, "the fetch took \(took) s")
        #expect(fetchedAt == nil)
    }

    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func aSignalEndsAFetchFromATricklingServerAtOnce(signal: Int32) async throws {
        let storage = try await mtt.offlineListenerRun()
        storage.behave { $0.answer = .trickle(seconds: 0.5) }
        let fetch = try mtt.start(["fetch", "--ttn-url", storage.baseURL, "--timeout", "10m", "--db", mtt.database], environment: Self.key)
        defer { fetch.stop() }
        #expect(await eventually { storage.requests.count >= 1 }, "no request")
        fetch.signal(signal)
        #expect(await fetch.wait(timeout: 10), "signal \(signal) did not end the fetch")
        #expect(fetch.result.stdout.contains("stopped before the end"), "\(fetch.result.stdout) \(fetch.result.stderr)")
        #expect(fetchedAt == nil)
    }

    @Test func aHugeRateLimitWaitIsCappedSaidAndEndedByASignal() async throws {
        let storage = try await mtt.offlineListenerRun()
        storage.behave {
            $0.rateLimited = 1_000
            $0.retryAfter = 99_999_999
        }
        let fetch = try mtt.start(["fetch", "--ttn-url", storage.baseURL, "--db", mtt.database], environment: Self.key)
        defer { fetch.stop() }
        #expect(await eventually { storage.requests.count >= 1 }, "no request")
        // Deliberate: the SIGINT is to land inside the rate-limit wait that answer started, which
        // says nothing on a pipe; sent at once it could land before the answer was read.
        try await Task.sleep(for: .milliseconds(300))
        fetch.signal(SIGINT)
        #expect(await fetch.wait(timeout: 10), "SIGINT did not end the wait")
        let out = fetch.result.stdout
        #expect(out.contains("warning: the server asked to wait 99999999 s; mtt waits 60 s at most, then asks again"), "\(out)")
        #expect(out.contains("stopped before the end"), "\(out)")
    }

    @Test func aStopDuringAnUploadToASilentServerDoesNotWaitForTheRequestsTimeout() async throws {
        try await #require(mtt.run([
            "collect", "--mode", "active", "--node", "fake", "--gps", "fake", "--network", "fake", "--speed", "20", "--duration", "2s", "--db", mtt.database,
        ]).status == 0)
        let silent = try LoopbackHTTPServer { _ in .stall(seconds: 120) }
        let sync = try mtt.start([
            "sync", "--target", "ttnmapper", "--url", silent.baseURL + "/api/v2", "--include-simulated", "--timeout", "60s", "--db", mtt.database,
        ])
        defer { sync.stop() }
        #expect(await eventually { !silent.requests.isEmpty }, "no request: \(sync.stderr)")
        let signalled = ContinuousClock.now
        sync.signal(SIGINT)
        #expect(await sync.wait(timeout: 45), "SIGINT did not end the sync")
        let took = (ContinuousClock.now - signalled) / .seconds(1)
        // Well under the request's 60 s timeout, which a stop that waited for the answer would take
        // (unloaded, it ends within a second; beside a second suite it took 12 s).
        #expect(took < 30, "the sync ended \(took) s after SIGINT")
        // Nothing was answered, so nothing is marked sent: everything waits for the next sync.
        let store = try Store(path: mtt.database)
        #expect(try store.sync.syncCount(.ttnmapper, state: .sent) == 0 && store.status().simulated["ttnmapper"] ?? 0 > 0)
    }
}
