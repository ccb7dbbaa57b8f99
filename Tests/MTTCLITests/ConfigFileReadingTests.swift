import Foundation
import MTTCore
import TestSupport
import Testing

/// A configuration file as a user gets it wrong (issue 34, item 13): each way it cannot be read is
/// said with its reason, and a secret's file named relative to it is found beside it.
@Suite("Reading the configuration file")
struct ConfigFileReadingTests {
    let mtt = MTTCommand()

    @Test func aFileThatCannotBeReadSaysWhy() async throws {
        let missing = mtt.dir.file("missing.toml")
        let folder = mtt.dir.file("folder.toml")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let fifo = mtt.dir.file("fifo.toml")
        #expect(mkfifo(fifo, 0o600) == 0)
        let binary = mtt.dir.file("latin1.toml")
        try Data([0x5B, 0x64, 0x62, 0x5D, 0x0A, 0x70, 0x61, 0x74, 0x68, 0x3D, 0x22, 0xE9, 0x22, 0x0A]).write(to: URL(fileURLWithPath: binary))
        for (path, reason) in [
            (missing, "cannot read the file: No such file or directory"), (folder, "cannot read the file: it is a folder"),
            (fifo, "cannot read the file: it is not a regular file (a pipe, a socket or a device)"), (binary, "cannot read the file: it is not UTF-8 text"),
        ] {
            let check = try await mtt.run(["config", "check", "--config", path])
            #expect(check.status == 1 || check.status == 64, "\(path)")
            #expect(check.stderr.contains("\(path):0: \(reason)"), "\(check.stderr)")
        }
    }

    @Test func aSecretFileNamedRelativeToTheConfigurationIsFoundBesideIt() async throws {
        let folder = mtt.dir.file("etc")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "a-token-of-sixteen-or-more\n".write(toFile: folder + "/map-token", atomically: true, encoding: .utf8)
        chmod(folder + "/map-token", 0o600)
        let config = folder + "/mtt.toml"
        try "[serve]\nlisten = \"0.0.0.0:8080\"\ntoken_file = \"map-token\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        // Started from another folder (the test's), as a service or a shell elsewhere would.
        let check = try await mtt.run(["config", "check", "--config", config])
        #expect(check.status == 0, "\(check.stderr)")
        let show = try await mtt.run(["config", "show", "--config", config])
        #expect(show.stdout.contains(folder + "/map-token"), "\(show.stdout)")
    }
}
