import Foundation

/// docs/event.schema.json, applied by a real JSON Schema validator (Debian's python3-jsonschema,
/// Draft 2020-12) to events as mtt wrote them: one problem line per event that does not match.
public enum EventSchema {
    public static let path = FixtureFiles.repositoryRoot + "/docs/event.schema.json"

    /// The problems of `lines` (JSON objects, one per line); empty when every one is valid.
    public static func problems(_ lines: [String]) async throws -> [String] {
        let dir = TemporaryDirectory()
        let events = dir.file("events.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(toFile: events, atomically: true, encoding: .utf8)
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            validator = jsonschema.Draft202012Validator(schema)
            validator.check_schema(schema)
            count = 0
            for n, line in enumerate(open(sys.argv[2]), 1):
                if not line.strip(): continue
                count += 1
                for error in validator.iter_errors(json.loads(line)):
                    print(f"line {n}: {error.message}: {line.strip()[:200]}")
            print(f"checked {count}", file=sys.stderr)
            """
        let result = try await ChildProcess.run("/usr/bin/python3", ["-c", script, path, events])
        guard result.status == 0, result.stderr.contains("checked \(lines.filter { !$0.isEmpty }.count)") else {
            return ["the validator did not run: \(result.stderr)"]
        }
        return result.stdout.split(separator: "\n").map(String.init)
    }
}
