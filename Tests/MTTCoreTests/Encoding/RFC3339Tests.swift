import MTTCore
import Testing

@Suite("RFC 3339 text")
struct RFC3339Tests {
    @Test func formatsMillisecondsAndNanoseconds() {
        // 2016-05-25T15:30:26.713Z, the MapTheThings API example: 1464190226.713 s.
        let t = Timestamp(nanosecondsSinceEpoch: 1_464_190_226_713_000_000)
        #expect(RFC3339.string(t) == "2016-05-25T15:30:26.713Z")
        #expect(RFC3339.string(t, fractionDigits: 0) == "2016-05-25T15:30:26Z")
        #expect(RFC3339.string(Timestamp(nanosecondsSinceEpoch: 1_548_766_954_981_123_456), fractionDigits: 9) == "2019-01-29T13:02:34.981123456Z")
    }

    @Test func handlesEpochLeapDaysAndBeforeEpoch() {
        #expect(RFC3339.string(Timestamp(nanosecondsSinceEpoch: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(RFC3339.string(Timestamp(secondsSinceEpoch: 951_782_400)) == "2000-02-29T00:00:00.000Z")
        #expect(RFC3339.string(Timestamp(nanosecondsSinceEpoch: -1_000_000)) == "1969-12-31T23:59:59.999Z")
    }

    /// Found by scripts/fuzz (FuzzTTNJSON): years an Int64 of nanoseconds cannot hold used to trap.
    @Test(arguments: ["0927-05-01T14:41:00.123456789Z", "9999-12-31T23:59:59Z", "1677-09-21T00:12:43Z", "2262-04-11T23:47:17Z"])
    func yearsOutsideNanosecondRangeAreRefused(_ text: String) {
        #expect(RFC3339.parse(text) == nil)
    }

    @Test func theEdgesOfTheRangeAreKept() {
        #expect(RFC3339.parse("1677-09-21T00:12:44Z") != nil)
        #expect(RFC3339.parse("2262-04-11T23:47:16Z") != nil)
    }
}

@Suite("Times out of range")
struct RFC3339RangeTests {
    @Test func goZeroTimeIsOutOfRangeNotMalformed() {
        #expect(RFC3339.parse("0001-01-01T00:00:00Z") == nil)
        #expect(RFC3339.isOutOfRange("0001-01-01T00:00:00Z"))
        #expect(RFC3339.isOutOfRange("9999-12-31T23:59:59.999Z"))
        #expect(!RFC3339.isOutOfRange("yesterday at noon, UTC"))
        #expect(!RFC3339.isOutOfRange("2026-06-21T10:15:00Z"))
    }
}
