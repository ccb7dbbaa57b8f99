extension FixSourceKind {
    /// `payload`: each device's own fix, from its uplinks (listener mode); `payload+GPS`: the
    /// same, and that GPS's track for the devices whose uplinks carry no position. It lives here,
    /// not in an adapter: it reads nothing outside, and the spec after `+` is read by `others`.
    public static func payload(besides others: [FixSourceKind]) -> FixSourceKind {
        FixSourceKind(name: "payload", form: "payload[+GPS]") { text throws(SpecError) in
            guard text != "payload" else {
                return FixSourceRecipe(description: text, payloadBesideTrack: false) { _ in NoTrack() }
            }
            guard text.hasPrefix("payload+") else {
                throw SpecError("bad GPS spec \(text): use payload, or payload+ and a GPS (payload+gpsd)")
            }
            let track = try GPSSpec(parsing: String(text.dropFirst("payload+".count)), kinds: others)
            return FixSourceRecipe(description: "payload+\(track)", payloadBesideTrack: true) { context in track.source(context) }
        }
    }
}

/// `payload` alone has no GPS: the run's track stays empty, and says so once.
struct NoTrack: FixSource {
    var spec: String { "payload" }

    func events() -> AsyncStream<FixEvent> {
        AsyncStream { continuation in
            continuation.yield(.connected("positions from each device's own uplinks"))
            continuation.finish()
        }
    }
}
