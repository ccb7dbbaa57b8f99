import ArgumentParser

struct FakeNode: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fake-node",
        abstract: "Serve the emulated MapTheThings node on a Unix socket, for tests and trials.")

    @Option(help: ArgumentHelp("Where to listen: unix:PATH.", valueName: "address"))
    var listen: String

    func run() async throws {
        throw RuntimeFailure.notImplemented("fake-node")
    }
}
