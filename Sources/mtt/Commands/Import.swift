import ArgumentParser
import MTTCore
import MTTMQTT

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read a MapTheThings data set or a network's uplink log into the database.",
        discussion: """
            MapTheThings data sets (coverage JSON or lorawalk JSON): each file becomes a session of \
            its own; its samples are exported like collected ones but never uploaded again. In walk \
            tests, gaps in payload_seq are stored as lost transmissions.

            Uplink logs (The Things Stack uplink messages, ChirpStack v4 up events, the Helium \
            console's integration JSON; one message, an array, or one per line, as a webhook logger \
            or mosquitto_sub saves them): each uplink is stored once, however often it is imported, \
            and placed where its device's own position says (the network's decoded payload, else \
            --codec and [trackers] in the configuration), or kept with the reason.
            """)

    @Argument(help: "The JSON file.")
    var file: String

    @Option(help: ArgumentHelp("Uplink logs: read the payload of a device whose network decoded nothing with CODEC (repeatable; DEVICE a device id, a DevEUI or + for every device): \(PositionCodec.namesText).", valueName: "device=codec"))
    var codec: [String] = []

    @Option(name: .customLong("network-id"), help: ArgumentHelp("ChirpStack logs: the network id their uplinks carry, NS_CHIRP://HOST or as TTN Mapper knows it (default \(Self.chirpStackNetworkID)).", valueName: "id"))
    var networkID: String?

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    static let chirpStackNetworkID = "NS_CHIRP://imported"

    struct Result: Encodable {
        var session: Int64
        var samples: Int
        var lost: Int
        var counter_resets: Int
    }

    func run() throws {
        let settings = try database.settings(codec.isEmpty ? [:] : [.trackerCodecs: .list(codec)])
        let store = try database.openStore(in: settings)
        let chirpStack = networkID.map { $0.contains("://") ? $0 : "NS_CHIRP://" + $0 } ?? Self.chirpStackNetworkID
        if let format = UplinkLogImport.format(of: file, among: UplinkLogFormat.networks(chirpStackNetworkID: chirpStack)) {
            try importLog(format, into: store, settings)
        } else if !codec.isEmpty || networkID != nil {
            throw ValidationError("\(file) is not an uplink log (The Things Stack, ChirpStack v4 or Helium console JSON): --codec and --network-id are for those")
        } else {
            try importDataSet(into: store)
        }
    }

    private func importLog(_ format: UplinkLogFormat, into store: Store, _ settings: Config) throws {
        let positioning: PayloadPositioning
        do { positioning = try settings.payloadPositioning() } catch { throw ConfigOptions.failure(error) }
        let summary: UplinkLogImport.Summary
        do {
            summary = try UplinkLogImport.importFile(file, format: format, into: store, positioning: positioning, gaps: settings.frameCounterGapRules)
        } catch let error as UplinkLogError {
            throw RuntimeFailure(error.description)
        }
        if output.json {
            try JSONLine.print(summary)
            return
        }
        let already = summary.alreadyStored > 0 ? "; \(CountText.of(summary.alreadyStored, "uplink")) already stored, left as they were" : ""
        let other = summary.notUplinks > 0 ? "; \(CountText.of(summary.notUplinks, "entry", plural: "entries")) not an uplink" : ""
        guard let session = summary.session else {
            Console.out("nothing new in \(file) (\(summary.format))\(already)\(other)")
            return
        }
        Console.out("imported \(CountText.of(summary.uplinks, "uplink")) (\(summary.format)) into session \(session) of \(store.path): \(summary.placed) placed by their device's own position\(already)\(other)")
        if summary.estimatedAttempts > 0 {
            Console.out("  \(CountText.of(summary.estimatedAttempts, "frame")) the devices sent and nobody heard (gaps in their frame counters), kept as estimated attempts")
        }
        if summary.placed < summary.uplinks {
            Console.out("  \(summary.uplinks - summary.placed) kept without a position: mtt status --reasons says why")
        }
    }

    private func importDataSet(into store: Store) throws {
        let summary: MapTheThingsDataSet.Summary
        do {
            summary = try MapTheThingsDataSet.importFile(file, into: store)
        } catch let error as MapTheThingsDataSet.ImportError {
            throw RuntimeFailure(error.description)
        }
        if output.json {
            try JSONLine.print(Result(session: summary.session, samples: summary.samples, lost: summary.lost, counter_resets: summary.counterResets))
        } else {
            let loss = summary.lost > 0 ? ", \(summary.lost) lost packets from gaps in payload_seq" : ""
            Console.out("imported \(summary.samples) samples into session \(summary.session) of \(store.path)\(loss)")
            if summary.counterResets > 0 {
                Console.out("  \(summary.counterResets) jump(s) in payload_seq of more than \(MapTheThingsDataSet.largestGap) were taken as the node restarting its counter, not as losses")
            }
        }
    }
}
