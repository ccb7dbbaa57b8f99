import Foundation
import TestSupport
import Testing

@Suite("mtt node with serial modems")
struct NodeCommandTests {
    let mtt = MTTCommand()

    @Test(arguments: [("fake-rn2483", "RN2483 1.0.5", 7), ("fake-rui3", "RUI3 4.0.6", 12)])
    func infoAsJSON(node: String, model: String, sf: Int) async throws {
        let result = try await mtt.run(["node", "info", "--node", node, "--json"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["model"] as? String == model)
        #expect(object["joined"] as? Bool == true)
        #expect(object["sf"] as? Int == sf)
        #expect((object["dev_eui"] as? String)?.count == 16)
    }

    @Test func provisionReadsTheAppKeyFromAFileNeverArgv() async throws {
        let keyFile = mtt.dir.file("appkey")
        try "2B7E151628AED2A6ABF7158809CF4F3C\n".write(toFile: keyFile, atomically: true, encoding: .utf8)
        // One rule for every secret file: others may not read it.
        chmod(keyFile, 0o644)
        let open = try await mtt.run([
            "node", "provision", "--node", "fake-rn2483", "--dev-eui", "0004A30B001C0530",
            "--join-eui", "70B3D57ED0000000", "--app-key-file", keyFile, "--join",
        ])
        #expect(open.status == 1 && open.stderr == "mtt: \(keyFile) holds the AppKey but others can read it: run chmod 600 \(keyFile)\n", "\(open.stderr)")
        chmod(keyFile, 0o600)
        let result = try await mtt.run([
            "node", "provision", "--node", "fake-rn2483", "--dev-eui", "0004A30B001C0530",
            "--join-eui", "70B3D57ED0000000", "--app-key-file", keyFile, "--join",
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.hasSuffix("joined\n"))
        #expect(!result.stdout.contains("2B7E1516"))

        let missing = try await mtt.run(["node", "provision", "--node", "fake-rn2483", "--dev-eui", "0004A30B001C0530", "--join-eui", "70B3D57ED0000000"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "mtt: the AppKey is missing: put it in a file and give its path, or set MTT_APP_KEY\n")
    }

    /// A wrong AppKey is still a secret: the error says what is wrong with it, never what it is.
    @Test func aMalformedAppKeyIsNeverPrinted() async throws {
        let secret = "2B7E151628AED2A6ABF7158809CF4FZZ"
        let result = try await mtt.run(
            ["node", "provision", "--node", "fake-rn2483", "--dev-eui", "0004A30B001C0530", "--join-eui", "70B3D57ED0000000"],
            environment: ["MTT_APP_KEY": secret])
        #expect(result.status == 1)
        #expect(result.stderr.contains("AppKey must be 32 hex digits, got 32 characters, not all hex"), "\(result.stderr)")
        #expect(!result.stderr.contains("2B7E") && !result.stdout.contains("2B7E"))
    }

    @Test func outOfRangeSpreadingFactorIsRefused() async throws {
        #expect(try await mtt.run(["node", "sf", "9", "--node", "fake-rui3"]).status == 0)
        let result = try await mtt.run(["node", "sf", "13", "--node", "fake-rn2483"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot use SF13"))
    }

    @Test func missingDeviceAndBadSpec() async throws {
        let missing = try await mtt.run(["node", "info", "--node", "serial:/dev/ttyUSB77?modem=rn2483"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "mtt: cannot open /dev/ttyUSB77: No such file or directory\n")
        #expect(try await mtt.run(["node", "info", "--node", "serial:/dev/ttyUSB0"]).status == 64)
        #expect(try await mtt.run(["node", "info", "--node", "wifi:x"]).status == 64)
    }

    @Test(arguments: ["fake-rn2483", "fake-rui3", "fake"])
    func joinSendsOneJoinRequestAndSaysSo(node: String) async throws {
        let result = try await mtt.run(["node", "join", "--node", node])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix(" joined\n"), "\(result.stdout)")
    }
}
