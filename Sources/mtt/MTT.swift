import ArgumentParser
import MTTCore

struct MTT: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mtt",
        abstract: "Map LoRaWAN coverage: drive a node or listen to TTN, record where the network hears you.",
        discussion: """
            mtt records every transmit attempt and every uplink the network heard, with the GPS position, \
            in one SQLite file that survives losing signal, power or the process. Upload later with \
            `mtt sync`, or export for QGIS and Google Earth with `mtt export`.

            Start with `mtt demo` (fake node, GPS and network), then `mtt gps` and `mtt scan` to check \
            your hardware. The database is --db, else $MTT_DB, else [db] path in the configuration \
            file, else ~/.local/share/mtt/mtt.sqlite ($XDG_DATA_HOME/mtt); `mtt config show` says which.
            """,
        version: MTTVersion.current,
        subcommands: [
            Collect.self, Status.self, Sessions.self, Coverage.self, Events.self, Sync.self, Fetch.self, Serve.self, Report.self, Export.self, Import.self,
            Community.self,
            GPS.self, Scan.self, Node.self, FakeNodeCommand.self, Demo.self, ConfigCommand.self,
        ]
    )

    /// `mtt` alone, or `mtt --help`: the overview and the commands.
    func run() async throws {
        throw CleanExit.helpRequest(self)
    }
}
