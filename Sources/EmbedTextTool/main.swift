import Foundation

// EmbedText's tool: writes a Swift file declaring `extension TYPE { static let NAME = "…" }` with
// a text file's contents, for a build plugin. Usage: EmbedTextTool INPUT OUTPUT TYPE NAME
let arguments = CommandLine.arguments
guard arguments.count == 5 else {
    FileHandle.standardError.write(Data("usage: EmbedTextTool INPUT OUTPUT TYPE NAME\n".utf8))
    exit(64)
}
let (input, output, type, name) = (arguments[1], arguments[2], arguments[3], arguments[4])
guard let text = try? String(contentsOfFile: input, encoding: .utf8) else {
    FileHandle.standardError.write(Data("EmbedTextTool: cannot read \(input) as UTF-8\n".utf8))
    exit(1)
}
// A raw string needs one more # than the longest run of # after a quote or a backslash in the text.
var longest = 0, run = 0, counting = false
for character in text {
    if character == "#" && counting { run += 1; longest = max(longest, run) } else { run = 0; counting = character == "\"" || character == "\\" }
}
let hashes = String(repeating: "#", count: longest + 1)
let swift = """
    // Generated from \(URL(fileURLWithPath: input).lastPathComponent) by the EmbedText build plugin: edit that file, not this one.
    extension \(type) {
        static let \(name) = \(hashes)\"\"\"
    \(text)
    \"\"\"\(hashes)
    }

    """
// Written only when it changed, so that an unchanged script does not rebuild its module.
if (try? String(contentsOfFile: output, encoding: .utf8)) != swift {
    do {
        try swift.write(toFile: output, atomically: true, encoding: .utf8)
    } catch {
        FileHandle.standardError.write(Data("EmbedTextTool: cannot write \(output): \(error)\n".utf8))
        exit(1)
    }
}
