/// "1 gateway", "3 gateways": a count with its noun, as a person writes it ("(1 gateways)" and
/// "1 gateway(s)" were seen).
public enum CountText {
    public static func of(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? noun : plural ?? noun + "s")
    }
}
