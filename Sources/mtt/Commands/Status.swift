import ArgumentParser
import MTTCore

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what the database holds and what still waits to be uploaded.")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let store = try database.openStore()
        let status = try store.status()
        if output.json {
            try JSONLine.print(status)
        } else {
            print(StatusText.render(status, path: store.path))
        }
    }
}
