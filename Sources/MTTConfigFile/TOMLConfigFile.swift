import Foundation
import MTTCore
import TOMLKit

/// Reads mtt's configuration file (TOML, with TOMLKit) into MTTCore's `Config.Document`: each
/// `[section]` key as `section.key`, with the line it is on for messages. TOMLKit gives no line for
/// a value, so the lines come from a scan of the text for the key under its section header.
public enum TOMLConfigFile {
    public static func read(_ path: String) throws(ConfigError) -> Config.Document {
        func refuse(_ reason: String) -> ConfigError {
            ConfigError(place: .file(path: path, line: 0), key: "", message: "cannot read the file: \(reason)")
        }
        // Looked at before it is opened: reading a pipe would wait for a writer for ever.
        var status = stat()
        guard stat(path, &status) == 0 else { throw refuse(String(cString: strerror(errno))) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw refuse("it is a folder")
        default: throw refuse("it is not a regular file (a pipe, a socket or a device)")
        }
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw refuse(String(cString: strerror(access(path, R_OK) == 0 ? EIO : errno)))
        }
        guard let text = String(bytes: bytes, encoding: .utf8) else { throw refuse("it is not UTF-8 text") }
        return try parse(text, path: path)
    }

    public static func parse(_ text: String, path: String) throws(ConfigError) -> Config.Document {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigError(place: .file(path: path, line: error.source.begin.line), key: "", message: "not TOML: \(error.description)")
        } catch {
            throw ConfigError(place: .file(path: path, line: 1), key: "", message: "not TOML: \(error)")
        }
        let lines = keyLines(text)
        var values: [String: (value: ConfigValue, line: Int)] = [:]
        var hooks: [(header: Int, values: [String: (value: ConfigValue, line: Int)])] = []
        for (section, entry) in table {
            // [[hooks]]: a table each; their keys' lines are found under `hooks.N`.
            if section == "hooks", let array = entry.array {
                for (index, item) in array.enumerated() {
                    let prefix = "hooks.\(index + 1)"
                    guard let hook = item.table else {
                        throw ConfigError(place: .file(path: path, line: lines["hooks"] ?? 1), key: "hooks", message: "each hook is a [[hooks]] table")
                    }
                    var found: [String: (value: ConfigValue, line: Int)] = [:]
                    for (key, node) in hook {
                        let line = lines["\(prefix).\(key)"] ?? lines[prefix] ?? 1
                        found[key] = (try value(node, name: "hooks[\(index + 1)].\(key)", place: .file(path: path, line: line)), line)
                    }
                    hooks.append((lines[prefix] ?? 1, found))
                }
                continue
            }
            guard let inner = entry.table else {
                throw ConfigError(place: .file(path: path, line: lines[section] ?? 1), key: section, message: "settings go in a section, such as [collect]")
            }
            try flatten(inner, under: section, lines: lines, path: path, into: &values)
        }
        return Config.Document(path: path, values: values, hooks: hooks)
    }

    /// A section's keys as `section.key`; a table in it (a target's own, `[sync.file]`) one level deeper.
    private static func flatten(
        _ table: TOMLTable, under prefix: String, lines: [String: Int], path: String, into values: inout [String: (value: ConfigValue, line: Int)]
    ) throws(ConfigError) {
        for (key, node) in table {
            let name = "\(prefix).\(key)"
            if let inner = node.table {
                try flatten(inner, under: name, lines: lines, path: path, into: &values)
                continue
            }
            let line = lines[name] ?? 1
            values[name] = (try value(node, name: name, place: .file(path: path, line: line)), line)
        }
    }

    private static func value(_ node: TOMLValueConvertible, name: String, place: Config.Source) throws(ConfigError) -> ConfigValue {
        if let s = node.string { return .text(s) }
        if let i = node.int { return .number(Double(i)) }
        if let d = node.double { return .number(d) }
        if let b = node.bool { return .flag(b) }
        if let array = node.array {
            var items: [String] = []
            for item in array {
                guard let s = item.string else { throw ConfigError(place: place, key: name, message: "a list of text in quotes, such as [\"fake\"]") }
                items.append(s)
            }
            return .list(items)
        }
        throw ConfigError(place: place, key: name, message: "a value of a kind mtt does not take here (\(node.type))")
    }

    /// `section.key` → its line, from the text: section headers and `key =` lines.
    static func keyLines(_ text: String) -> [String: Int] {
        var found: [String: Int] = [:]
        var section = ""
        var tablesOf: [String: Int] = [:]
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") || line.isEmpty { continue }
            if line.hasPrefix("[") {
                section = line.trimmingCharacters(in: CharacterSet(charactersIn: "[] ")).components(separatedBy: "#")[0]
                    .trimmingCharacters(in: CharacterSet(charactersIn: "[] "))
                if found[section] == nil { found[section] = index + 1 }
                // An array of tables ([[hooks]]): each its own `hooks.N`.
                if line.hasPrefix("[[") {
                    tablesOf[section, default: 0] += 1
                    section += ".\(tablesOf[section]!)"
                    found[section] = index + 1
                }
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            let name = section.isEmpty ? key : "\(section).\(key)"
            if found[name] == nil { found[name] = index + 1 }
        }
        return found
    }
}
