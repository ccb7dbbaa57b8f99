import ArgumentParser

struct GPS: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gps",
        abstract: "Print fixes from the GPS, to check it before you drive.")

    @Option(help: ArgumentHelp("gpsd[://HOST:PORT], nmea:FILE, fixed:LAT,LON[,ALT] or fake.", valueName: "spec"))
    var gps = "gpsd"

    @Option(help: "Stop after this many fixes.")
    var count: Int?

    @OptionGroup var output: OutputOptions

    func run() async throws {
        throw RuntimeFailure.notImplemented("gps")
    }
}
