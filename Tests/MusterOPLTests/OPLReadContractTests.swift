import Foundation
import Hummingbird
import HummingbirdTesting
import MusterAppTesting
import MusterEvents
import MusterLog
import MusterOPL
import MusterPlatform
import MusterRuntime
import MusterTesting
import NIOFoundationEssentialsCompat
import Testing

/// One test per rule of contracts/opl-api.md for the read routes.
@Suite("OPL contract: mobile data, active strikes, blocklist.json")
struct OPLReadContractTests {
    static let rapidCity = (lat: 44.0805, lng: -103.2310)

    @Test func mobileDataHasTheContractShapeSortedByDistanceWithAGlobalURLList() async throws {
        try await apps.withTestApp { app in
            let key = try await app.key([OPLScopes.readMobile])
            let near = SeededAction(latitude: 44.09, longitude: -103.22,
                                    sites: [ActionSite(locationId: OPLIDs.random("loc_"), type: "picket-site", name: "Gate 2",
                                                       latitude: 44.0806, longitude: -103.2311, notificationRadius: 200)])
            let far = SeededAction(employer: "Puget Sound Parcel", urls: ["pugetparcel.com"], latitude: 47.6, longitude: -122.3)
            try await app.seed([near, far])

            // iOS also sends Content-Type: application/json on GETs: ignored.
            let response = try await app.request("/api/mobile/data?lat=44.0805&lng=-103.2310", key: key,
                                                 headers: [.contentType: "application/json", .accept: "application/json"])
            #expect(response.status == .ok)
            let hash = try #require(response.headers[.contentHash])
            #expect(hash.count == 64 && hash.allSatisfy(\.isHexDigit))
            let data = try Client.decode(Client.MobileData.self, Data(buffer: response.body))
            #expect(data.version == "1")
            #expect(data.suggestedRefreshInterval == 3_600_000)
            #expect(data.cachedRegion.radiusMeters == 160_934)
            #expect(data.cachedRegion.refreshThresholdMeters == 128_747)
            #expect(data.cachedRegion.center.lat == 44.0805)
            // Regional: the Seattle action is outside 100 miles; nearest first.
            #expect(data.geofences.total == 2)
            #expect(data.geofences.all.map(\.type) == ["picket-site", "action"])
            #expect(data.geofences.all.map(\.distance) == data.geofences.all.map(\.distance).sorted())
            #expect(data.geofences.all.allSatisfy { $0.actionId == near.id })
            #expect(data.geofences.byEmployer.count == 1 && data.geofences.byEmployer[0].geofences.count == 2)
            #expect(data.geofences.all[1].notificationRadius == BlocklistView.actionRadius)
            // Global: both employers' URLs, plain hosts; never a path on a shared host (the apps
            // match by host alone, so facebook.com/acmelogistics would block all of facebook.com).
            #expect(Set(data.blocklist.urls.map(\.url)) == ["acme-logistics.com", "pugetparcel.com"])
            #expect(data.blocklist.totalEmployers == 2 && data.blocklist.totalUrls == 2)
            // (Decoding `distance`, `radiusMeters` … as Int above is the iOS app's check that no integer carries a fraction.)
        }
    }

    @Test func zeroZeroAnswers200AndOddNumbersAreReadOrRefusedClearly() async throws {
        try await apps.withTestApp { app in
            let key = try await app.key([OPLScopes.readMobile])
            // The iOS app validates a new key with lat=0&lng=0 and deletes it on any failure.
            #expect(try await app.request("/api/mobile/data?lat=0&lng=0", key: key).status == .ok)
            for query in ["lat=4.40805e1&lng=-1.03231E2", "lat=1e-05&lng=1.0E-4", "lat=44&lng=-103&radius=1e4", "lat=-90&lng=180",
                          "lat=0&lng=0&hash=", "lat=0&lng=0&hash=\(String(repeating: "0", count: 64))", "lat=0&lng=0&includeInactive=false"] {
                #expect(try await app.request("/api/mobile/data?\(query)", key: key).status == .ok, "\(query)")
            }
            for query in ["lat=91&lng=0", "lat=NaN&lng=0", "lat=nan&lng=0", "lat=inf&lng=0", "lat=0x1p3&lng=0", "lat=abc&lng=0",
                          "lng=0", "lat=0&lng=0&radius=0", "lat=0&lng=0&radius=1e9", "lat=0&lng=0&includeInactive=maybe",
                          // What the description refuses: flags other than true/false, hashes that are not ours.
                          "lat=0&lng=0&includeInactive=", "lat=0&lng=0&includeInactive=1", "lat=0&lng=0&hash=abc",
                          "lat=0&lng=0&hash=\(String(repeating: "A", count: 64))", "lat=0&lng=0&hash=%02%C2%99"] {
                let response = try await app.request("/api/mobile/data?\(query)", key: key)
                #expect(response.status == .badRequest, "\(query)")
                #expect(!response.errorMessage.hasPrefix("<no"), "\(query)")
            }
        }
    }

    @Test func keysAndScopes() async throws {
        try await apps.withTestApp { app in
            let reader = try await app.key([OPLScopes.readMobile])
            let writer = try await app.key([OPLScopes.submitStrike])
            for uri in ["/api/mobile/data?lat=0&lng=0", "/api/mobile/active-strikes", "/api/blocklist.json"] {
                // The DNS client may send no key at all: 401 with {error}, never 500.
                let none = try await app.request(uri)
                #expect(none.status == .unauthorized && none.errorMessage.contains("missing API key"), "\(uri)")
                #expect(try await app.request(uri, key: "").status == .unauthorized)
                #expect(try await app.request(uri, key: writer).status == .forbidden)
                #expect(try await app.request(uri, key: reader).status == .ok)
            }
        }
    }

    /// An employer with three actions lists each of its URLs once (the iOS "Sites" tile counts
    /// entries), and shared-host paths stay out of the mobile answer (not of the extension's map).
    @Test func eachEmployerURLPairOnceAndNoSharedHostPaths() async throws {
        try await apps.withTestApp { app in
            let key = try await app.key([OPLScopes.readMobile])
            let urls = ["acme-logistics.com", "shop.acme-logistics.com", "facebook.com/acmelogistics", "instagram.com/acme"]
            try await app.seed((0..<3).map { _ in SeededAction(urls: urls) })
            let data = try Client.decode(Client.MobileData.self,
                                         Data(buffer: try await app.request("/api/mobile/data?lat=44.0805&lng=-103.2310", key: key).body))
            #expect(data.blocklist.urls.map(\.url) == ["acme-logistics.com", "shop.acme-logistics.com"])
            #expect(data.blocklist.totalUrls == 2)
            let map = try Client.decode([String: Client.ExtensionEntry].self,
                                        Data(buffer: try await app.request("/api/blocklist.json?format=extension", key: key).body))
            #expect(map["Acme Logistics"]?.matchingUrlRegexes.contains("facebook\\.com/acmelogistics") == true)
        }
    }

    /// A log written before entries were decided by registrable domain (its approvals have no
    /// `ownDomains`, and one holds a bare `facebook.com`): the feeds read it with today's rules.
    @Test func anOldLogIsServedWithTodaysRules() async throws {
        try await apps.withTestApp { app in
            let key = try await app.key([OPLScopes.readMobile])
            try await app.seed([SeededAction(urls: ["acme-logistics.com", "facebook.com", "m.facebook.com/acmelogistics", "acme-logistics.ca",
                                                    "play.google.com/store/apps/details?id=com.acme"])])
            let data = try Client.decode(Client.MobileData.self,
                                         Data(buffer: try await app.request("/api/mobile/data?lat=44.0805&lng=-103.2310", key: key).body))
            #expect(data.blocklist.urls.map(\.url) == ["acme-logistics.com"])
            let dns = try Client.decode([String: Client.ExtensionEntry].self, Data(buffer: try await app.request("/api/blocklist.json", key: key).body))
            #expect(dns["Acme Logistics"]?.matchingUrlRegexes == ["acme-logistics.com"])
            let ext = try Client.decode([String: Client.ExtensionEntry].self,
                                        Data(buffer: try await app.request("/api/blocklist.json?format=extension", key: key).body))
            #expect(ext["Acme Logistics"]?.matchingUrlRegexes == ["acme-logistics.com", "facebook\\.com/acmelogistics",
                                                                  "play\\.google\\.com/store/apps/details\\?id=com\\.acme",
                                                                  "play\\.google\\.com/store/apps/details?id=com\\.acme"])
        }
    }

    @Test func hashGives304ForTheSameRegionOnlyAndChangesWithTheData() async throws {
        try await apps.withTestApp { app in
            let key = try await app.key([OPLScopes.readMobile])
            try await app.seed([SeededAction()])
            let uri = "/api/mobile/data?lat=44.0805&lng=-103.2310"
            let first = try await app.request(uri, key: key)
            let hash = try #require(first.headers[.contentHash])
            let again = try await app.request(uri + "&hash=\(hash)", key: key)
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
            #expect(again.headers[.contentHash] == hash)
            #expect(try await app.request(uri, key: key, headers: [.ifNoneMatch: "\"\(hash)\""]).status == .notModified)
            // A client that moved gets 200 with its new region, never a stale 304.
            let moved = try await app.request("/api/mobile/data?lat=44.5&lng=-103.2310&hash=\(hash)", key: key)
            #expect(moved.status == .ok)
            #expect(try Client.decode(Client.MobileData.self, Data(buffer: moved.body)).cachedRegion.center.lat == 44.5)
            #expect(try await app.request(uri + "&radius=50000&hash=\(hash)", key: key).status == .ok)
            // The hash covers everything but generatedAt: the same data gives the same hash.
            #expect(try await app.request(uri, key: key).headers[.contentHash] == hash)
            // New data, new hash.
            try await app.seed([SeededAction(employer: "Northstar Hotels", urls: ["northstarhotels.com"], latitude: 47, longitude: -122)])
            let changed = try await app.request(uri + "&hash=\(hash)", key: key)
            #expect(changed.status == .ok)
            #expect(changed.headers[.contentHash] != hash)
        }
    }

    @Test func endedAndExpiredActionsLeaveUnlessIncludeInactive() async throws {
        try await apps.withTestApp { app in
            let key = try await app.key([OPLScopes.readMobile])
            let live = SeededAction()
            let expired = SeededAction(employer: "Old Mill", urls: ["oldmill.com"], start: Date().addingTimeInterval(-40 * 86_400), durationDays: 10)
            let future = SeededAction(employer: "Future Foods", urls: ["futurefoods.com"], start: Date().addingTimeInterval(5 * 86_400))
            try await app.seed([live, expired, future])

            let strikes = try Client.decode(Client.ActiveStrikes.self, Data(buffer: try await app.request("/api/mobile/active-strikes", key: key).body))
            #expect(strikes.success && strikes.count == 2)
            #expect(Set(strikes.strikes.map(\.id)) == [live.id, future.id])

            let map = try Client.decode([String: Client.ExtensionEntry].self, Data(buffer: try await app.request("/api/blocklist.json", key: key).body))
            #expect(Set(map.keys) == ["Acme Logistics", "Future Foods"])
            #expect(map["Acme Logistics"]?.actionDetails.status == "active")
            #expect(map["Future Foods"]?.actionDetails.status == "approved")
            let all = try Client.decode([String: Client.ExtensionEntry].self,
                                        Data(buffer: try await app.request("/api/blocklist.json?includeInactive=true", key: key).body))
            #expect(all["Old Mill"]?.actionDetails.status == "ended")

            let data = try Client.decode(Client.MobileData.self, Data(buffer: try await app.request("/api/mobile/data?lat=44.08&lng=-103.23", key: key).body))
            #expect(!data.blocklist.urls.contains { $0.url == "oldmill.com" })
            let inactive = try Client.decode(Client.MobileData.self,
                                             Data(buffer: try await app.request("/api/mobile/data?lat=44.08&lng=-103.23&includeInactive=true", key: key).body))
            #expect(inactive.blocklist.urls.contains { $0.url == "oldmill.com" })
        }
    }

    @Test func blocklistJSONIsPlainHostsWithDNSSafeDefault() async throws {
        try await apps.withTestApp { app in
            let key = try await app.key([OPLScopes.readMobile])
            try await app.seed([SeededAction(employer: "_Underscore Inc", urls: ["underscore.com", "shop.underscore.com", "facebook.com/underscore",
                                                                               "underscore.com/careers"])])
            // The DNS filter sends no format: same map, but no host/path entries on shared hosts.
            let dns = try await app.request("/api/blocklist.json", key: key)
            let dnsMap = try Client.decode([String: Client.ExtensionEntry].self, Data(buffer: dns.body))
            #expect(dnsMap.keys.allSatisfy { !$0.hasPrefix("_") }, "no key but _optimizedPatterns may start with _")
            let entry = try #require(dnsMap["Underscore Inc"])
            // underscore.com/careers is under the employer's own domain: the whole host, once.
            #expect(entry.matchingUrlRegexes == ["underscore.com", "shop.underscore.com"])
            #expect(entry.actionDetails.status == "active")
            #expect(entry.moreInfoUrl == "https://example.org/strike")
            let ext = try Client.decode([String: Client.ExtensionEntry].self,
                                        Data(buffer: try await app.request("/api/blocklist.json?format=extension", key: key).body))
            #expect(ext["Underscore Inc"]?.matchingUrlRegexes == ["underscore.com", "shop.underscore.com", "facebook\\.com/underscore"])
            // Hosts plain (the DNS filter's form); pages with their dots escaped, nothing else.
            for pattern in dnsMap.values.flatMap(\.matchingUrlRegexes) {
                #expect(!pattern.contains("\\") && !pattern.contains("/") && !pattern.hasPrefix("^") && pattern == pattern.lowercased())
            }
            for pattern in ext.values.flatMap(\.matchingUrlRegexes) {
                #expect(!pattern.contains("://") && !pattern.hasPrefix("^") && !pattern.replacingOccurrences(of: "\\.", with: "").contains("\\"))
            }
            #expect(try await app.request("/api/blocklist.json?format=regex", key: key).status == .badRequest)
            let hash = try #require(dns.headers[.contentHash])
            // The extension appends the hash unencoded: it is plain hex.
            #expect(try await app.request("/api/blocklist.json?hash=\(hash)", key: key).status == .notModified)
            #expect(try await app.request("/api/blocklist.json?format=extension&hash=\(hash)", key: key).status == .ok)
        }
    }

    @Test func rateLimitAnswers429WithRetryAfter() async throws {
        try await apps.withTestApp(configure: { $0.readRatePerMinute = 3 }) { app in
            let key = try await app.key([OPLScopes.readMobile])
            for _ in 0..<3 { #expect(try await app.request("/api/mobile/active-strikes", key: key).status == .ok) }
            let limited = try await app.request("/api/mobile/active-strikes", key: key)
            #expect(limited.status == .tooManyRequests)
            #expect(Int(limited.headers[.retryAfter] ?? "") ?? 0 >= 1)
            #expect(limited.errorMessage.contains("rate limit"))
            // Another key has its own bucket.
            #expect(try await app.request("/api/mobile/active-strikes", key: try await app.key([OPLScopes.readMobile])).status == .ok)
        }
    }
}

/// The same rules over a real socket, where the 304s are answered in the channel pipeline.
@Suite("OPL contract over HTTP on a socket (the 304 fast path)")
struct OPLFastPathTests {
    @Test func fastPathAnswersOnlyWhatTheRouteWouldAnswer() async throws {
        try await apps.withTestApp(["query"], live: true, configure: { $0.readRatePerMinute = 6 }) { app in
            let key = try await app.key([OPLScopes.readMobile])
            try await app.seed([SeededAction()])
            let uri = "/api/mobile/data?lat=44.0805&lng=-103.2310"
            let spending = ContinuousClock.now // the bucket refills from here on
            let first = try await app.request(uri, key: key)
            #expect(first.status == .ok)
            let hash = try #require(first.headers[.contentHash])
            for _ in 0..<3 {
                let again = try await app.request(uri + "&hash=\(hash)", key: key)
                #expect(again.status == .notModified)
                #expect(again.headers[.contentHash] == hash && again.headers[.eTag] == "\"\(hash)\"")
                #expect(again.body.readableBytes == 0)
            }
            // Same hash, another region: never a stale 304.
            #expect(try await app.request("/api/mobile/data?lat=45&lng=-103.2310&hash=\(hash)", key: key).status == .ok)
            // Malformed queries and foreign keys take the ordinary way and get its answers.
            #expect(try await app.request("/api/mobile/data?lat=NaN&lng=0&hash=\(hash)", key: key).status == .badRequest)
            #expect(try await app.request(uri + "&hash=\(hash)", key: "opl_" + String(repeating: "ab", count: 32)).status == .unauthorized)
            #expect(try await app.request(uri + "&hash=\(hash)").status == .unauthorized)
            // The rate limit holds on the fast path too: 6 a minute, 6 used above. The bucket refills a
            // token every 10 s, and a loaded machine may have taken that long: as many more may pass as
            // refilled since the first request, and not one more.
            var passed = 0
            let limited = try await firstRefused(since: spending, passed: &passed, refused: { $0.status != .notModified }) {
                try await app.request(uri + "&hash=\(hash)", key: key)
            }
            #expect(limited.status == .tooManyRequests && limited.headers[.retryAfter] != nil)
            // A revoked key is refused at once, even with a current hash and after the fast path knew it.
            let (other, issued) = issuedKey(scopes: [OPLScopes.readMobile])
            try await app.settled("keys", at: try await app.log.append(issued).sequence)
            #expect(try await app.request(uri + "&hash=\(hash)", key: other).status == .notModified)
            #expect(try await app.request(uri + "&hash=\(hash)", key: other).status == .notModified)
            let revoked = try await app.log.append(APIKeyRevoked(keyId: issued.keyId, reason: "lost phone", revokedBy: "test")).sequence
            try await app.settled("keys", at: revoked)
            #expect(try await app.request(uri + "&hash=\(hash)", key: other).status == .unauthorized)
        }
    }
}

/// The 304s a connection's listener answers from the bytes of each read, ahead of the HTTP
/// decoder, against those answered behind it.
@Suite("OPL polls ahead of the HTTP decoder")
struct OPLPollListenerTests {
    @Test func pollsAreAnsweredAheadOfTheDecoderAsBehindIt() async throws {
        try await apps.withLiveServer(["query"], configure: { $0.readRatePerMinute = 0; $0.connectionLimits.idleTimeout = .seconds(10) }) { env, port in
            let key = try await env.key([OPLScopes.readMobile])
            try await env.settled("opl", at: try await SeededAction().append(to: env.log))
            let uri = "/api/mobile/data?lat=44.0805&lng=-103.2310"
            let full = try RawSocket(port: port)
            try full.send("GET \(uri) HTTP/1.1\r\nHost: x\r\nX-API-Key: \(key)\r\n\r\n")
            let first = await offThread { full.receive(wait: .seconds(10)) }
            #expect(first.hasPrefix("HTTP/1.1 200"))
            let hashLine = try #require(first.split(separator: "\r\n").first { $0.lowercased().hasPrefix("x-content-hash: ") })
            let poll = "GET \(uri)&hash=\(hashLine.dropFirst(16)) HTTP/1.1\r\nHost: x\r\nX-API-Key: \(key)\r\n\r\n"

            // The same poll in two reads: the decoder's, and its fast path's answer.
            let split = try RawSocket(port: port)
            try split.send(String(poll.prefix(20)))
            try await Task.sleep(for: .milliseconds(100))
            try split.send(String(poll.dropFirst(20)))
            let decoded = await offThread { split.receive(wait: .seconds(10)) }
            #expect(decoded.hasPrefix("HTTP/1.1 304 Not Modified\r\n") && decoded.hasSuffix("\r\n\r\n"))
            #expect(decoded.contains("\r\nETag: \"\(hashLine.dropFirst(16))\"\r\n"))
            // The decoder keeps that connection, and its next poll gets the same answer.
            try split.send(poll)
            #expect(await offThread { split.receive(wait: .seconds(10)) } == decoded)
            // One poll a read: the listener's, byte for byte the same answer, as long as the
            // client polls within the idle limit (10 s here: 3 s of polls, one every 0.5 s, and
            // room for a loaded machine, where the whole suite on two cores delayed a task's
            // wake-up past 4 s); closed when it stops.
            let polling = try RawSocket(port: port)
            for _ in 0..<6 {
                try polling.send(poll)
                #expect(await offThread { polling.receive(wait: .seconds(10)) } == decoded)
                try await Task.sleep(for: .milliseconds(500))
            }
            #expect(await offThread { polling.state(wait: .seconds(15)) } == .closed)
            // Two polls in one read: both answered, in order.
            let pipelined = try RawSocket(port: port)
            try pipelined.send(poll + poll)
            let both = await offThread {
                var text = ""
                while text.count < 2 * decoded.count { let more = pipelined.receive(wait: .seconds(10)); if more.isEmpty { break }; text += more }
                return text
            }
            #expect(both == decoded + decoded)
            // Another GET on the connection (as a gateway's pooled connection carries): the
            // router's answer, then the poll's again.
            let mixed = try RawSocket(port: port)
            try mixed.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await offThread { mixed.receive(wait: .seconds(10)) }.hasPrefix("HTTP/1.1 200"))
            try mixed.send(poll)
            #expect(await offThread { mixed.receive(wait: .seconds(10)) } == decoded)
        }
    }
}
