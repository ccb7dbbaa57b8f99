/// Joins active-mode attempts to the uplinks the network heard, by DevEUI and frame counter.
/// Either may come first (TTN often publishes the uplink before the node's TX result arrives over
/// BLE), so each waits for the other. A later entry with the same key replaces an earlier one,
/// which is how a frame counter reset after a rejoin is tolerated: the newest attempt wins.
struct UplinkJoiner {
    struct Key: Hashable {
        var devEUI: String
        var frameCounter: UInt32
    }

    private var attemptsWaiting: [Key: Int64] = [:]
    private var uplinksWaiting: [Key: Int64] = [:]

    /// A confirmed attempt: the uplink already heard for it, if any.
    mutating func confirmed(attempt: Int64, devEUI: String, frameCounter: UInt32) -> Int64? {
        let key = Key(devEUI: devEUI, frameCounter: frameCounter)
        if let uplink = uplinksWaiting.removeValue(forKey: key) { return uplink }
        attemptsWaiting[key] = attempt
        return nil
    }

    /// A heard uplink: the attempt it belongs to, if one is waiting.
    mutating func heard(uplink: Int64, devEUI: String, frameCounter: UInt32) -> Int64? {
        let key = Key(devEUI: devEUI, frameCounter: frameCounter)
        if let attempt = attemptsWaiting.removeValue(forKey: key) { return attempt }
        uplinksWaiting[key] = uplink
        return nil
    }
}
