import ArgumentParser
import Foundation
import MTTCore

struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Try mtt with no hardware: fake node, fake GPS and fake network.")

    @Option(name: .customLong("db"), help: ArgumentHelp("The demo's database (default: demo.sqlite beside the main one).", valueName: "path"))
    var path: String?

    func run() throws {
        let mainPath = StoreLocation.resolve(explicit: nil)
        let path = self.path ?? ((mainPath as NSString).deletingLastPathComponent + "/demo.sqlite")
        print("""
            mtt demo: one minute of active mapping with no hardware.
              node     fake      (an emulated MapTheThings node speaking real ATT over a socket pair)
              gps      fake      (a simulated drive)
              network  fake      (gateways with a path-loss model, answering as TTN v3 would)

            The collecting part of the demo comes with `mtt collect`, which is not built yet in \
            mtt \(MTTVersion.current). The database it will write is ready:

            """)
        let store = try Store(path: path)
        print(StatusText.render(try store.status(), path: store.path))
    }
}
