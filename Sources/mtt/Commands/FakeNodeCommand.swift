import ArgumentParser
import Glibc
import MTTBluetooth
import MTTCore

struct FakeNodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fake-node",
        abstract: "Serve the emulated MapTheThings node on a Unix socket, for tests and trials.",
        discussion: """
            Another mtt connects with --node unix:PATH and talks real ATT to it, one PDU per message. \
            The node keeps its keys and frame counter across connections until this process ends.
            """)

    @Option(help: ArgumentHelp("Where to listen: unix:PATH.", valueName: "address"))
    var listen: String

    @Flag(name: .customLong("not-joined"), help: "Start without a LoRa session, as a fresh node.")
    var notJoined = false

    func validate() throws {
        guard listen.hasPrefix("unix:"), listen.count > 5 else { throw ValidationError("--listen takes unix:PATH") }
    }

    func run() async throws {
        let path = String(listen.dropFirst(5))
        let listener = try NodeEmulatorListener(path: path)
        // Ctrl-C, SIGTERM (systemctl stop, kill) or a closed terminal end it and take its socket
        // file with it.
        let interrupts = InterruptWatch {
            listener.removeSocketFile()
            Glibc.exit(0)
        }
        defer { interrupts.cancel() }
        Console.out("MapTheThings node emulator listening on unix:\(path)")
        try await listener.serve(NodeEmulator(joined: !notJoined))
    }
}
