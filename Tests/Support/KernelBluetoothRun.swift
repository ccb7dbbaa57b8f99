import Foundation

/// One boot of `scripts/ble-vm` running `Tests/KernelBluetooth/scenario.sh`: Debian's kernel
/// under qemu, with mtt's fake node and mtt's client on virtual controllers. The scenario runs
/// once per test run, the first test that asks starts it, and every test reads its own step.
public actor KernelBluetoothRun {
    public struct Step: Sendable {
        public var output: [String]
        public var status: Int
        public var seconds: Double
        /// How long mtt took to start just before the step (the scenario's `startup`), if timed.
        public var startUp: Double?

        /// What mtt and the scenario printed, without the kernel's console messages.
        public var lines: [String] { output.filter { !$0.hasPrefix("[") || $0.hasPrefix("[\"") } }

        /// The lines that are JSON objects, decoded.
        public var objects: [[String: Any]] {
            lines.compactMap { line in
                guard line.hasPrefix("{") else { return nil }
                return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            }
        }

        public func contains(_ text: String) -> Bool { output.contains { $0.contains(text) } }
    }

    public struct Outcome: Sendable {
        public var steps: [String: Step]
        public var console: String
        public var seconds: Double
    }

    public static let shared = KernelBluetoothRun()
    private var running: Task<Outcome, any Error>?

    /// qemu-system-x86_64 answers `--version`: only where it does not is the group skipped.
    public static let qemuStarts: Bool = {
        (try? ChildProcess.runBlocking("/usr/bin/env", ["qemu-system-x86_64", "--version"]))?.status == 0
    }()

    public func outcome() async throws -> Outcome {
        if let running { return try await running.value }
        let task = Task { try await Self.boot() }
        running = task
        return try await task.value
    }

    public func step(_ name: String) async throws -> Step {
        let outcome = try await outcome()
        guard let step = outcome.steps[name] else {
            throw KernelRunError("the scenario has no step \(name); the console said:\n\(outcome.console.suffix(4000))")
        }
        return step
    }

    private static func boot() async throws -> Outcome {
        let root = FixtureFiles.repositoryRoot
        let started = Date()
        // The image is built once (scripts/test does it before the suite; otherwise here); the
        // boot itself takes about two minutes under TCG, most of it the scenario's 60 s drive, and
        // beside a second suite five (309 s seen): as long as that may take.
        let result = try await ChildProcess.run(
            root + "/scripts/ble-vm", ["run", root + "/Tests/KernelBluetooth/scenario.sh"], timeout: 900)
        let console = result.stdout.replacingOccurrences(of: "\r", with: "")
        // Kept for whoever reads a failure.
        try? console.write(toFile: root + "/.build/ble-vm/console.txt", atomically: true, encoding: .utf8)
        guard console.contains("@@exit") else {
            throw KernelRunError("the virtual machine did not finish the scenario (exit \(result.status)): \(result.stderr.suffix(2000))\n\(console.suffix(4000))")
        }
        // Every step assumes mtt's client on hci0 and the fake nodes on hci1 and hci2.
        guard let ready = console.split(separator: "\n").first(where: { $0.contains("@@ready ") }), ready.hasSuffix("hci0 hci1 hci2 ") else {
            throw KernelRunError("the virtual machine's controllers were not hci0, hci1 and hci2 (btvirt):\n\(console.prefix(4000))")
        }
        return Outcome(steps: parse(console), console: console, seconds: Date().timeIntervalSince(started))
    }

    static func parse(_ console: String) -> [String: Step] {
        var steps: [String: Step] = [:]
        var current: (name: String, lines: [String])?
        var startUp: Double?
        // Without the colour codes btmgmt writes to a terminal (in readline's \u{01}…\u{02}),
        // which can run into the next line.
        let plain = console.replacing(#/\x{01}?\x{1B}\[[0-9;]*m\x{02}?/#, with: "")
        for line in plain.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("@@startup seconds=") {
                startUp = Double(line.dropFirst("@@startup seconds=".count))
            } else if line.hasPrefix("@@step ") {
                current = (String(line.dropFirst(7)), [])
            } else if line.hasPrefix("@@end "), let open = current {
                let fields = line.split(separator: " ")
                let value = { (key: String) in fields.first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) } }
                steps[open.name] = Step(
                    output: open.lines, status: value("rc").flatMap(Int.init) ?? -1, seconds: value("seconds").flatMap(Double.init) ?? -1,
                    startUp: startUp)
                current = nil
                startUp = nil
            } else if current != nil {
                current?.lines.append(line)
            }
        }
        return steps
    }
}

public struct KernelRunError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
