import MTTBluetooth
import MTTCore
import Testing

@Suite("Advertising data")
struct AdvertisingDataTests {
    /// SPEC.md: the node's raw AD, then its name.
    @Test func theNodesRealAdvertisement() {
        let raw = Hex.bytes("020106 09020A180F1830183118".replacingOccurrences(of: " ", with: ""))! + [13, 0x09] + Array("MapTheThings".utf8)
        let ad = AdvertisingData(bytes: raw)
        #expect(ad.flags == 0x06)
        #expect(ad.serviceUUIDs == [.short(0x180A), .short(0x180F), .short(0x1830), .short(0x1831)])
        #expect(ad.name == "MapTheThings")
        #expect(ad.isMapTheThingsNode && !ad.malformed)
    }

    @Test func recognisedByServiceAloneOrNameAlone() {
        #expect(AdvertisingData(bytes: Hex.bytes("03033018")!).isMapTheThingsNode)
        #expect(AdvertisingData(bytes: [13, 0x09] + Array("MapTheThings".utf8)).isMapTheThingsNode)
        #expect(!AdvertisingData(bytes: Hex.bytes("0201060303AAFE")!).isMapTheThingsNode)
    }

    @Test(arguments: [
        "05030A18",  // length runs past the end
        "0403301800",  // odd-length UUID list
        "020106000303",  // zero length followed by data
        "FF",  // length byte alone
    ])
    func malformedStructuresStopParsingWithoutATrap(hex: String) {
        let ad = AdvertisingData(bytes: Hex.bytes(hex)!)
        #expect(ad.malformed)
    }

    @Test func trailingZeroPaddingIsFine() {
        let ad = AdvertisingData(bytes: Hex.bytes("0201060000000000")!)
        #expect(ad.flags == 6 && !ad.malformed)
    }

    /// Found by scripts/fuzz (FuzzEIR): a structure of length 1 has a type and no data.
    @Test func aStructureWithATypeAndNoDataIsRead() {
        let ad = AdvertisingData(bytes: [0x01, 0x00, 0x00, 0x00, 0x0A])
        #expect(ad.malformed)
        let flagsOnly = AdvertisingData(bytes: [0x01, 0x01, 0x03, 0x09, 0x4D, 0x54])
        #expect(flagsOnly.flags == nil && flagsOnly.name == "MT" && !flagsOnly.malformed)
    }
}
