/// The level below which an antenna's receptions are not in the data, per spreading factor: LoRa's
/// sensitivity (`LoRaReceiver.signalFloor`), or the weakest reception the antenna did report at that
/// SF when it is lower. Real gateways report signals a few dB under the book's sensitivity (an SNR
/// estimate under the demodulation floor, a better front end); with the book's floor alone, a city
/// whose gateways hear 4 dB deeper had 45 % of its receptions inside their 80 % intervals instead of
/// 80 % (scripts/prediction-bench with FLOOR_OFFSET=4), as every reception under it was "impossible".
/// The weakest reception is at or above the real floor, and nears it as receptions accumulate.
struct SignalFloors: Sendable {
    private var lowest: [Int: Double] = [:]

    init(_ observations: [AntennaObservation]) {
        for o in observations {
            guard let signal = o.signal else { continue }
            lowest[o.spreadingFactor] = min(lowest[o.spreadingFactor] ?? signal, signal)
        }
    }

    subscript(spreadingFactor: Int) -> Double {
        min(LoRaReceiver.signalFloor(spreadingFactor: spreadingFactor), lowest[spreadingFactor] ?? .infinity)
    }
}
