extension Double {
    /// `25` rather than `25.0`, `0.5` as is: numbers in messages, specs and exports.
    public var plainText: String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
