import ArgumentParser

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read a MapTheThings data set (coverage JSON or lorawalk JSON) into the database.")

    @Argument(help: "The JSON file.")
    var file: String

    @OptionGroup var database: DatabaseOptions

    func run() throws {
        throw RuntimeFailure.notImplemented("import")
    }
}
