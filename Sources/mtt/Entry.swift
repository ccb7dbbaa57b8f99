import ArgumentParser
import Foundation
import MTTCore
import MTTSystem

/// Parses the command line and runs the command. Usage errors exit 64 with ArgumentParser's help;
/// runtime failures print one line, `mtt: reason`, on stderr and exit 1.
@main
enum Entry {
    static func main() async {
        ProcessStart.prepare()
        // A command that runs for hours gives back what loading took (relocations, the libraries'
        // constructors) before it parses its command line, so that start-up does not set the run's
        // peak: a listener's 18-25 MB became 15 MB. Short commands keep those pages (paged out and
        // read back, `mtt --version` took 9 ms longer).
        if let name = CommandLine.arguments.dropFirst().first(where: { !$0.hasPrefix("-") }),
           [Collect._commandName, Serve._commandName, Demo._commandName, FakeNodeCommand._commandName].contains(name) {
            StartUpPages.release()
        }
        StandardOutput.guardStandardDescriptors()
        LoggingSetup.bootstrap()
        var command: any ParsableCommand
        do {
            command = try MTT.parseAsRoot()
        } catch {
            MTT.exit(withError: error)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as ValidationError {
            // Options checked when the command runs: the same words and exit code as ArgumentParser's.
            StandardOutput.writeError("Error: \(error.message)\n  See 'mtt \(type(of: command)._commandName) --help' for more information.\n")
            Foundation.exit(ExitCode.validationFailure.rawValue)
        } catch where MTT.exitCode(for: error) != .failure {
            // Help, versions and usage errors, as ArgumentParser classifies them (some of its error
            // types are internal): its own words and exit codes (0, 64).
            MTT.exit(withError: error)
        } catch {
            // The reader went away (`| head`): a normal end, whichever writer noticed it.
            if StandardOutput.endedByClosedPipe || (error as? OutputError)?.isClosedPipe == true { Foundation.exit(0) }
            fail(StandardOutput.failure.map { "\($0)" } ?? RuntimeFailure.oneLine(error))
        }
        if let failure = StandardOutput.failure, !StandardOutput.endedByClosedPipe {
            fail("\(failure)")
        }
    }

    private static func fail(_ reason: String) -> Never {
        StandardOutput.writeError("mtt: \(reason)\n")
        Foundation.exit(1)
    }
}
