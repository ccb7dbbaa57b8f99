extension ModemKind {
    /// The RN2483's US915 sibling: the same command set (driven by `RN2483Link`, which reads the
    /// region from `sys get ver`), DR0 = SF10 … DR3 = SF7.
    public static let rn2903 = ModemKind(
        name: "rn2903", help: "Microchip RN2903 (US915)", defaultBaud: 57_600,
        open: { spec, timeouts in try await RN2483Link(spec: spec, timeouts: timeouts) },
        personality: { joined, holdsKeys in
            RN2483Personality(joined: joined, holdsKeys: holdsKeys, version: "RN2903 1.0.5 Nov 06 2018 10:45:27", plan: .us915)
        })
}
