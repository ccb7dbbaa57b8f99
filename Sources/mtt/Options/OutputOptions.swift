import ArgumentParser

struct OutputOptions: ParsableArguments {
    @Flag(help: "Print JSON (one object per line) instead of text for people.")
    var json = false
}
