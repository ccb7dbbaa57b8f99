import Foundation
import MTTBluetooth
import MTTCore
import TestSupport
import Testing

@Suite("mtt with BLE nodes")
struct BluetoothCommandTests {
    let mtt = MTTCommand()

    @Test func nodeInfoOnTheBuiltInFakeNode() async throws {
        let result = try await mtt.run(["node", "info", "--node", "fake"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("Model     MapTheThings 0.1.0"))
        #expect(result.stdout.contains("Joined    yes"))
    }

    /// `mtt fake-node` as its own process, reached over `unix:` by the GATT client in this process
    /// and by another mtt.
    @Test func fakeNodeProcessServesRealATTOverAUnixSocket() async throws {
        let socket = mtt.dir.file("node.sock")
        let server = try mtt.start(["fake-node", "--listen", "unix:\(socket)"])
        defer { server.kill() }
        #expect(await server.waitForOutput(timeout: 20) { $0.contains("listening") })

        // What is checked is each send's frame counter, not its time: beside a second suite one
        // send took more than the 5 s this allowed, and counted as failed (issue 46's pairs).
        let node = try await MapTheThingsNode.connect(bearer: try SeqPacketBearer.connect(unixPath: socket), name: "unix:\(socket)", sendTimeout: 60)
        let payload = LocationPayload(format: .tracked, latitude: 40.6714, longitude: -73.9863).bytes
        var counters: [UInt32?] = []
        for _ in 0..<20 {
            let result = try await node.send(payload)
            let counter: UInt32? = if case .confirmed(let c) = result.outcome { c } else { nil }
            counters.append(counter)
        }
        #expect(counters == (0..<20).map { UInt32($0) })
        try await node.setSpreadingFactor(8)
        await node.close()

        // A second client finds the node as the first one left it.
        let result = try await mtt.run(["node", "info", "--node", "unix:\(socket)", "--json"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["sf"] as? Int == 8)
        #expect(object["dev_eui"] as? String == "0004A30B001C0530")
    }

    /// A node that goes away during `mtt collect` and comes back: `mtt status`, run beside the
    /// collection, shows it lost, then connected again with one reconnect.
    @Test func statusShowsEachNodesStateAndReconnectsDuringARun() async throws {
        let socket = mtt.dir.file("node.sock")
        var node = try mtt.start(["fake-node", "--listen", "unix:\(socket)"])
        #expect(await node.waitForOutput(timeout: 20) { $0.contains("listening") })
        let run = try mtt.start([
            "collect", "--mode", "active", "--node", "unix:\(socket)", "--gps", "fixed:52.09,5.12",
            "--every", "1s", "--min-interval", "1s", "--db", mtt.database, "--json",
        ])
        defer {
            run.kill()
            node.kill()
        }
        #expect(await run.waitForOutput(timeout: 30) { $0.contains(#""type":"attempt""#) })
        node.kill()
        #expect(await run.waitForOutput(timeout: 30) { $0.contains(#""type":"node_lost""#) })

        let away = try await mtt.run(["status", "--db", mtt.database, "--json"])
        #expect(away.status == 0, "stderr: \(away.stderr)")
        let lost = try #require(try Self.nodes(away.stdout).first)
        #expect(lost["node"] as? String == "unix:\(socket)")
        #expect(lost["state"] as? String == "lost" && (lost["reason"] as? String)?.isEmpty == false)
        #expect(lost["reconnects"] as? Int == 0 && lost["session_ended"] as? Bool == false)

        node = try mtt.start(["fake-node", "--listen", "unix:\(socket)"])
        #expect(await run.waitForOutput(timeout: 30) { $0.contains(#""type":"node_back""#) })
        let back = try await mtt.run(["status", "--db", mtt.database, "--json"])
        let connected = try #require(try Self.nodes(back.stdout).first)
        #expect(connected["state"] as? String == "connected" && connected["reconnects"] as? Int == 1)
        let text = try await mtt.run(["status", "--db", mtt.database])
        #expect(text.stdout.contains("unix:\(socket)  connected since "), "\(text.stdout)")
        #expect(text.stdout.contains(", 1 reconnect\n") || text.stdout.hasSuffix(", 1 reconnect"), "\(text.stdout)")
    }

    static func nodes(_ json: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return object?["nodes"] as? [[String: Any]] ?? []
    }

    /// Whether this kernel has Bluetooth (this CI's has none).
    static let kernelHasBluetooth = (try? BluetoothSocket.openL2CAP()).map { close($0) } != nil

    @Test(.enabled(if: !Self.kernelHasBluetooth, "this kernel has Bluetooth, so what mtt says without it cannot be seen here"))
    func withoutBluetoothScanAndBLENodesSaySoPlainly() async throws {
        let scan = try await mtt.run(["scan", "--timeout", "1s"])
        #expect(scan.status == 1)
        #expect(scan.stderr == "mtt: Bluetooth is not available on this system (AF_BLUETOOTH)\n")
        let node = try await mtt.run(["node", "info", "--node", "ble:C1:22:33:44:55:66"])
        #expect(node.stderr == "mtt: Bluetooth is not available on this system (AF_BLUETOOTH)\n")
    }

    @Test func missingUnixSocketIsOneLine() async throws {
        let result = try await mtt.run(["node", "info", "--node", "unix:/nonexistent/node.sock"])
        #expect(result.status == 1)
        #expect(result.stderr == "mtt: connect to /nonexistent/node.sock failed: No such file or directory\n")
    }
}
