import PackagePlugin

/// Embeds the map page's script (`Page/map.js` of MTTWeb) as `MapScript.text` at build time: the
/// script stays a JavaScript file that `node --check` and a linter read, and the binary needs no
/// resource beside it.
@main
struct EmbedText: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let input = target.directoryURL.appending(path: "Page/map.js")
        let output = context.pluginWorkDirectoryURL.appending(path: "MapScript+Text.swift")
        return [
            .buildCommand(
                displayName: "Embedding Page/map.js",
                executable: try context.tool(named: "EmbedTextTool").url,
                arguments: [input.path(), output.path(), "MapScript", "text"],
                inputFiles: [input],
                outputFiles: [output])
        ]
    }
}
