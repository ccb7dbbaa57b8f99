import Foundation
@testable import MTTWeb
import TestSupport
import Testing

/// The map's script is a JavaScript file of its own (Sources/MTTWeb/Page/map.js): JavaScript's own
/// parser reads it here, and the binary serves exactly that file. The headless-Chromium tests
/// (MTTCLITests) run it.
@Suite("The map's script")
struct MapScriptTests {
    static let path = FixtureFiles.repositoryRoot + "/Sources/MTTWeb/Page/map.js"

    /// Node.js, as Debian's nodejs installs it (scripts/setup) or a local install.
    static func node() throws -> String {
        try #require(["/usr/bin/node", "/usr/local/bin/node"].first { FileManager.default.isExecutableFile(atPath: $0) },
                     "no node: scripts/setup installs Debian's nodejs")
    }

    @Test func nodeParsesIt() async throws {
        let node = try Self.node()
        let check = try await ChildProcess.run(node, ["--check", Self.path])
        #expect(check.status == 0, "map.js does not parse: \(check.stderr)")
    }

    @Test func theBinaryCarriesTheFileAsItIs() throws {
        #expect(MapScript.text == (try String(contentsOfFile: Self.path, encoding: .utf8)))
    }

    /// A check that cannot fail is no check: a broken copy is refused.
    @Test func aSyntaxErrorIsFound() async throws {
        let dir = TemporaryDirectory()
        let broken = dir.file("broken.js")
        try (MapScript.text + "\n(function () {\n").write(toFile: broken, atomically: true, encoding: .utf8)
        #expect(try await ChildProcess.run(try Self.node(), ["--check", broken]).status != 0)
    }
}
