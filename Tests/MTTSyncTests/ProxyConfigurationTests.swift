import Foundation
import MTTCore
import MTTHTTP
import TestSupport
import Testing

/// The proxy environment read as curl reads it.
@Suite("Proxy settings from the environment")
struct ProxyConfigurationTests {
    @Test func eachSchemeHasItsVariableAndAllProxyIsTheFallback() throws {
        let both = try ProxyConfiguration(environment: ["http_proxy": "http://p1:3128", "HTTPS_PROXY": "p2:8080"])
        #expect(both.proxy(scheme: "http", host: "map.example.org")?.address == HostPort(host: "p1", port: 3128))
        #expect(both.proxy(scheme: "https", host: "map.example.org")?.address == HostPort(host: "p2", port: 8080))
        // HTTP_PROXY in capitals is not read (a CGI program gets it from a request header), as curl.
        #expect(try ProxyConfiguration(environment: ["HTTP_PROXY": "http://p1:3128"]).proxy(scheme: "http", host: "x") == nil)
        let all = try ProxyConfiguration(environment: ["ALL_PROXY": "http://[::1]"])
        #expect(all.proxy(scheme: "https", host: "x")?.address == HostPort(host: "::1", port: 1080))
    }

    @Test func noProxyCoversTheHostAndItsSubdomains() throws {
        let p = try ProxyConfiguration(environment: ["https_proxy": "http://p:1", "no_proxy": " .example.org, 10.1.2.3 ,internal"])
        for host in ["example.org", "map.example.org", "10.1.2.3", "internal", "a.internal"] {
            #expect(p.proxy(scheme: "https", host: host) == nil, "\(host)")
        }
        for host in ["example.org.evil", "notexample.org", "10.1.2.30", "ttnmapper.org"] {
            #expect(p.proxy(scheme: "https", host: host) != nil, "\(host)")
        }
        #expect(try ProxyConfiguration(environment: ["https_proxy": "http://p:1", "NO_PROXY": "*"]).proxy(scheme: "https", host: "a") == nil)
    }

    @Test func credentialsBecomeBasicAuthorizationAndNeverShow() throws {
        let p = try ProxyConfiguration(environment: ["https_proxy": "http://mapper:p%40ss@proxy:3128"])
        #expect(p.https?.authorization == "Basic " + Data("mapper:p@ss".utf8).base64EncodedString())
        #expect {
            try ProxyConfiguration(environment: ["https_proxy": "socks5://mapper:secret@proxy:1080"])
        } throws: { "\($0)" == "https_proxy: mtt speaks to http:// proxies only, not socks5://" }
    }
}

@Suite("Which targets a sync covers")
struct SyncSelectionTests {
    @Test func aServerURLWithoutATargetIsMapTheThingsOnly() {
        #expect(SyncSelection().targets == [.mapthethings, .ttnmapper])
        #expect(SyncSelection(target: .ttnmapper).targets == [.ttnmapper])
        let custom = SyncSelection(url: URL(string: "http://my-server:8080"))
        #expect(custom.targets == [.mapthethings] && custom.narrowing != nil)
        #expect(SyncSelection(target: .ttnmapper, url: URL(string: "http://x")).narrowing == nil)
    }

    @Test func theTTNMapperUserIDIsMadeOnceAndKept() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.file("id.sqlite"))
        let first = try store.ttnMapperUserID()
        #expect(first.hasPrefix("mtt-") && first.count == 40)
        #expect(try store.ttnMapperUserID() == first)
    }
}
