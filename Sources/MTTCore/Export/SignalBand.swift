/// TTN Mapper's colour bands by RSSI + min(SNR, 0); black for what was not heard.
public enum SignalBand: String, Sendable, CaseIterable {
    case red = "above-100", orange = "above-105", yellow = "above-110", green = "above-115", lightBlue = "above-120"
    case blue = "weakest", black = "not-heard"

    public init(_ r: ExportRecord) {
        guard r.status == .heard, let level = r.signalLevel else {
            self = .black
            return
        }
        switch level {
        case let l where l > -100: self = .red
        case let l where l > -105: self = .orange
        case let l where l > -110: self = .yellow
        case let l where l > -115: self = .green
        case let l where l > -120: self = .lightBlue
        default: self = .blue
        }
    }

    /// The band's colour on every map (DESIGN.md), `#rrggbb`.
    public var hexColor: String {
        switch self {
        case .red: "#ff0000"
        case .orange: "#ff7f00"
        case .yellow: "#ffff00"
        case .green: "#00ff00"
        case .lightBlue: "#00ffff"
        case .blue: "#0000ff"
        case .black: "#000000"
        }
    }

    /// The band in a map's legend.
    public var label: String {
        switch self {
        case .red: "> -100 dBm"
        case .orange: "-100 … -105"
        case .yellow: "-105 … -110"
        case .green: "-110 … -115"
        case .lightBlue: "-115 … -120"
        case .blue: "≤ -120"
        case .black: "not heard"
        }
    }

    /// KML colours are aabbggrr: the same colour, its bytes the other way round.
    var kmlColor: String {
        let rgb = Array(hexColor.dropFirst())
        return "ff" + String(rgb[4...5]) + String(rgb[2...3]) + String(rgb[0...1])
    }
}
