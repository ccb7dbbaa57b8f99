import ArgumentParser
import Foundation
import MTTCore

struct CoverageValidate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Say how far to trust mtt coverage predict: spatially blocked cross-validation on your own data.",
        discussion: """
            The mapped area is cut into squares (--block, 1 km) and each square goes whole to one of \
            --folds folds: each fold is predicted by models fitted on the others, so no held-out \
            reception has a neighbour from the same street in the training data. Printed: the error \
            of the predicted signal on held-out receptions (RMSE, MAE, dB), the share inside their \
            80 % interval (80 % when the intervals are honest), and how well P(heard) tells heard \
            places from places not heard (AUC; 0.5 is chance), each beside a plain log-distance line \
            per antenna on the same folds.
            """)

    @Option(help: ArgumentHelp("Folds (2 to 20).", valueName: "k"))
    var folds = 5

    @Option(help: ArgumentHelp("Side of the squares held out together, metres (200 to 10,000).", valueName: "m"))
    var block = 1_000.0

    @Option(help: ArgumentHelp("Only this gateway's antennas.", valueName: "id"))
    var gateway: String?

    @OptionGroup var window: TimeWindowOptions
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        _ = try window.filter()
        if !(2...20).contains(folds) { throw ValidationError("--folds takes 2 to 20") }
        if !(200...10_000).contains(block) { throw ValidationError("--block takes 200 to 10000 metres") }
    }

    func run() throws {
        let store = try database.openStore(.readOnly)
        try window.checkSession(in: store)
        let data = try store.coverage.predictionData(CoverageFilter(window: try window.filter(), gateway: gateway))
        let report = BlockedCrossValidation(folds: folds, blockMetres: block).run(data)
        if output.json {
            try JSONLine.print(report)
            return
        }
        guard report.receptions > 0 else {
            throw RuntimeFailure("nothing to validate: no antenna has \(AntennaModel.minimumReceptions) receptions with a position in the other folds")
        }
        func auc(_ s: BlockedCrossValidation.Scores) -> String { s.auc.map { String(format: "%.3f", $0) } ?? "n/a (only heard places held out)" }
        Console.out("""
            Held out   \(report.receptions) receptions and \(report.places) places, \(report.antennas) antenna(s), \(report.folds) folds of \(Int(report.blockMetres)) m squares
                       model (censored line + kriged residuals)   log-distance line alone
            RMSE       \(String(format: "%6.2f dB", report.model.rmse))                            \(String(format: "%6.2f dB", report.baseline.rmse))
            MAE        \(String(format: "%6.2f dB", report.model.mae))                            \(String(format: "%6.2f dB", report.baseline.mae))
            In 80 %    \(String(format: "%6.1f %%", 100 * report.model.inside80))                             \(String(format: "%6.1f %%", 100 * report.baseline.inside80))
            AUC        \(auc(report.model))                               \(auc(report.baseline))
            """)
    }
}
