import ArgumentParser
import Foundation
import MTTCore
import MTTGPS

struct CoveragePredict: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predict",
        abstract: "Predict the signal where nobody drove: per gateway antenna, with its 80 % interval and the chance of being heard.",
        discussion: """
            Each antenna with a position and at least \(AntennaModel.minimumReceptions) receptions gets a \
            model from its own data: a log-distance line (10·n between 15 and 60 dB a decade) fitted to \
            its receptions and to the places it did not hear (attempts nobody heard, uplinks only others \
            heard: the data are cut off below the receiver's sensitivity), and its receptions' residuals \
            spread between the places they were measured (simple kriging). The signal is RSSI + min(SNR, \
            0), as the cells count it. A place more than a quarter beyond an antenna's farthest reception \
            gets no prediction from it, with the reason. mtt coverage validate says how far to trust it. \
            With --db postgresql://USER@HOST/DATABASE (a role mtt community grant-map made): from a \
            community's shared coverage, fitted to its cells (each reception at its cell's centre, with \
            its TTN Mapper bucket's signal).
            """)

    @Option(help: ArgumentHelp("A place to predict (repeatable).", valueName: "lat,lon"))
    var at: [String] = []

    @Option(help: ArgumentHelp("A CSV file of lat,lon lines (a header line is skipped), or - for standard input.", valueName: "file"))
    var points: String?

    @Option(help: ArgumentHelp("Only this gateway's antennas (its id, as mtt coverage names it).", valueName: "id"))
    var gateway: String?

    @Option(help: ArgumentHelp("P(heard) at this spreading factor (7 to 12; default each antenna's most used).", valueName: "n"))
    var sf: Int?

    @Flag(help: "Print CSV: a line per point and antenna.")
    var csv = false

    @OptionGroup var window: TimeWindowOptions
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        _ = try window.filter()
        if at.isEmpty && points == nil { throw ValidationError("give the places: --at LAT,LON (repeatable) or --points FILE (- for standard input)") }
        if let sf, !(7...12).contains(sf) { throw ValidationError("--sf takes a spreading factor from 7 to 12") }
        if csv && output.json { throw ValidationError("--csv and --json: choose one") }
        for text in at where FixedPositionSource.point(parsing: text) == nil {
            throw ValidationError("--at takes LAT,LON (latitude -90…90, longitude -180…180), not \(text)")
        }
    }

    func run() throws {
        var places = at.compactMap { FixedPositionSource.point(parsing: $0) }
        if let points { places += try PointsFile.read(points) }
        let source = try database.openCoverage(window)
        let model = CoverageModel(try source.coverage.predictionData(CoverageFilter(window: try window.filter(), gateway: gateway)))
        if model.models.isEmpty && !output.json && !csv {
            Console.error("mtt: no antenna has a model: " + (model.refused.isEmpty ? "nothing was heard with a position yet" : model.refused.map { "\($0.key.gateway): \($0.reason)" }.joined(separator: "; ")))
        }
        if csv { Console.out(PointPrediction.csvHeader) }
        for place in places {
            let prediction = model.predict(at: place, spreadingFactor: sf)
            if output.json {
                try JSONLine.print(prediction)
            } else if csv {
                for line in prediction.csvLines { Console.out(line) }
            } else {
                Console.out(PredictionText.render(prediction))
            }
        }
    }
}
