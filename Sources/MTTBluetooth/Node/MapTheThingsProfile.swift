/// The MapTheThings node's GATT table (SPEC.md section 1). Every UUID is 16-bit on the Bluetooth
/// base; 0x1830/0x1831 and 0x2AD0–0x2ADB carry the node's own meanings, not the SIG's.
public enum MapTheThingsProfile {
    /// The name the node advertises (the MapTheThings firmware's), which scans recognise it by.
    public static let advertisedName = "MapTheThings"

    public static let loraService = BluetoothUUID.short(0x1830)
    public static let logService = BluetoothUUID.short(0x1831)
    public static let batteryService = BluetoothUUID.short(0x180F)
    public static let deviceInformationService = BluetoothUUID.short(0x180A)

    /// u16 LE; 1 makes the node drop the BLE link.
    public static let command = BluetoothUUID.short(0x2AD0)
    /// Untracked send: the LoRa payload as is.
    public static let sendPacket = BluetoothUUID.short(0x2AD1)
    /// Tracked send: `[ble_seq] + payload`.
    public static let sendPacketWithAck = BluetoothUUID.short(0x2ADB)
    /// Notify: `01 ble_seq error(u16 LE) f_cnt(u32 LE)`, on success only.
    public static let txResult = BluetoothUUID.short(0x2ADA)
    public static let devAddr = BluetoothUUID.short(0x2AD2)
    public static let nwkSKey = BluetoothUUID.short(0x2AD3)
    public static let appSKey = BluetoothUUID.short(0x2AD4)
    public static let appKey = BluetoothUUID.short(0x2AD7)
    /// LSB first, the reverse of the console form.
    public static let appEUI = BluetoothUUID.short(0x2AD8)
    /// LSB first, the reverse of the console form.
    public static let devEUI = BluetoothUUID.short(0x2AD9)
    public static let spreadingFactor = BluetoothUUID.short(0x2AD5)
    public static let logText = BluetoothUUID.short(0x2AD6)
    public static let batteryLevel = BluetoothUUID.short(0x2A19)
    public static let manufacturer = BluetoothUUID.short(0x2A29)
    public static let softwareRevision = BluetoothUUID.short(0x2A28)

    /// The nRF51 Bluefruit's largest characteristic value.
    public static let maximumValueLength = 20
    /// How long mtt waits for a TX result before counting the send as failed (the node's own TX
    /// timeout is 20 s, and it never reports failures).
    public static let sendTimeout = 25.0
}
