/// What a 125 kHz LoRa receiver can demodulate at each spreading factor: the sensitivity (dBm) and
/// the demodulation floor (dB SNR). The simulated network decides with them who hears a frame, a link
/// check's margin counts from the floor, and the coverage prediction takes the sensitivity as the
/// level below which a signal is not in the data at all (SPEC §11: the data are censored there),
/// unless an antenna's own receptions go lower (`SignalFloors`).
public enum LoRaReceiver {
    public static func limits(spreadingFactor sf: Int) -> (sensitivity: Double, snr: Double) {
        switch sf {
        case ...7: return (-123, -7.5)
        case 8: return (-126, -10)
        case 9: return (-129, -12.5)
        case 10: return (-132, -15)
        case 11: return (-134.5, -17.5)
        default: return (-137, -20)
        }
    }

    /// The weakest signal as mtt grades it, RSSI + min(SNR, 0), that a reception can show: the
    /// sensitivity. A gateway's RSSI is the power in the channel, which stops near the noise floor,
    /// so for a frame below the noise RSSI + SNR is the frame's own level; and the sensitivity is
    /// that noise floor plus the SF's SNR floor (−123 dBm at SF7, −137 at SF12). Below it nothing is
    /// in the data.
    public static func signalFloor(spreadingFactor sf: Int) -> Double {
        limits(spreadingFactor: sf).sensitivity
    }
}
