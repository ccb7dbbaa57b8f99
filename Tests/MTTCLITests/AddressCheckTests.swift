import Foundation
import MTTCore
import TestSupport
import Testing

/// Addresses and tokens as a user writes them: `config check` refuses what `collect` and `serve`
/// would refuse later (issue 34 item 9, issue 33 item 5), and the map's link works whatever its
/// token holds (issue 34 item 10).
@Suite("Addresses and the map's token")
struct AddressCheckTests {
    let mtt = MTTCommand()

    @Test(arguments: [
        ("[collect]\nmqtt_url = \"ftp://x\"\n", "collect.mqtt_url: bad MQTT URL ftp://x: use mqtt://HOST:1883 or mqtts://HOST:8883"),
        ("[collect]\nmqtt_url = \"mqtt://\"\n", "collect.mqtt_url: bad MQTT URL mqtt://: no host"),
        ("[collect]\nmqtt_url = \"mqtt://127.0.0.1:99999\"\n", "collect.mqtt_url: bad MQTT URL mqtt://127.0.0.1:99999: the port must be 1 to 65535"),
        ("[collect]\nmqtt_url = \"htp:/broken\"\n", "collect.mqtt_url: bad MQTT URL htp:/broken"),
        ("[serve]\nlisten = \"nowhere\"\n", "serve.listen: takes HOST:PORT, such as 127.0.0.1:8080 or 0.0.0.0:8080: nowhere is no address this machine knows"),
        ("[collect]\nweb = \"also-nowhere\"\n", "collect.web: takes HOST:PORT, such as 127.0.0.1:8080 or 0.0.0.0:8080: also-nowhere is no address this machine knows"),
    ])
    func configCheckRefusesAnAddressThatCannotBeUsed(file: String, reason: String) async throws {
        let config = mtt.dir.file("mtt.toml")
        try file.write(toFile: config, atomically: true, encoding: .utf8)
        let check = try await mtt.run(["config", "check", "--config", config])
        #expect(check.status == 1, "\(check.stdout)")
        #expect(check.stderr.contains(reason), "\(check.stderr)")
        #expect(check.stderr.split(separator: "\n").count == 1, "\(check.stderr)")
    }

    @Test func theMapLinkWorksWhateverItsTokenHolds() async throws {
        try MapTestData.fill(try Store(path: mtt.database))
        let tokenFile = mtt.dir.file("token")
        let token = "a+b/c=d&e#f-0123456789"
        try token.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        chmod(tokenFile, 0o600)
        let port = LoopbackPort.free()
        let server = try mtt.start(["serve", "--listen", "0.0.0.0:\(port)", "--token-file", tokenFile, "--tiles", "none", "--db", mtt.database])
        defer { server.kill() }
        #expect(await server.waitForOutput(timeout: 30) { $0.contains("?token=") }, "\(server.stderr)")
        let link = try #require(server.stdout.split(separator: "\n").first { $0.contains("?token=") }.flatMap { $0.split(separator: " ").last })
        #expect(link.hasSuffix("?token=a%2Bb%2Fc%3Dd%26e%23f-0123456789"), "\(link)")
        // The link as printed, asked for on loopback: the token it carries is the file's.
        let query = String(link[link.firstIndex(of: "?")!...])
        #expect(try await PlainHTTP.get(port: port, "/api/status" + query).status == 200)
        #expect(try await PlainHTTP.get(port: port, "/api/status?token=a+b/c=d&e").status == 401)
    }

    @Test(arguments: ["short-token", String(repeating: "t", count: 2000)])
    func aTokenTooShortOrTooLongIsRefusedWithTheReason(token: String) async throws {
        try MapTestData.fill(try Store(path: mtt.database))
        let tokenFile = mtt.dir.file("token")
        try token.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        chmod(tokenFile, 0o600)
        let serve = try await mtt.run(["serve", "--listen", "0.0.0.0:\(LoopbackPort.free())", "--token-file", tokenFile, "--db", mtt.database])
        #expect(serve.status == 1)
        #expect(serve.stderr.contains("the map's token in \(tokenFile) has \(token.count) characters; it takes 16 to 1024"), "\(serve.stderr)")
    }
}
