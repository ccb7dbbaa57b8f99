import ArgumentParser
import MTTCore

struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Upload what is not uploaded yet to MapTheThings and TTN Mapper.")

    @Option(help: "mapthethings or ttnmapper (default: both).")
    var target: SyncTarget?

    @Option(help: ArgumentHelp("The server's base URL.", valueName: "url"))
    var url: String?

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        throw RuntimeFailure.notImplemented("sync")
    }
}

extension SyncTarget: ExpressibleByArgument {}
