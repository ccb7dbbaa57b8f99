import ArgumentParser

struct Scan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Look for MapTheThings nodes over Bluetooth LE.")

    @Option(help: ArgumentHelp("How long to scan, e.g. 10s.", valueName: "duration"))
    var timeout = "10s"

    @OptionGroup var output: OutputOptions

    func run() async throws {
        throw RuntimeFailure.notImplemented("scan")
    }
}
