import Foundation
import Hummingbird
import HummingbirdTesting
import MusterAppTesting
import MusterEvents
import MusterGeo
import MusterNATS
import MusterOPL
import MusterPlatform
import MusterRuntime
import MusterTesting
import NIOFoundationEssentialsCompat
import Testing

@Suite("OPL geocoding: routes, NATS, enrichment of submissions")
struct GeocodeTests {
    @Test func routesAnswerInTheShapesBothAppsDecode() async throws {
        try await apps.withTestApp(["geocode"]) { app in
            let key = try await app.key([OPLScopes.readMobile])
            try await eventually("gazetteer loaded") {
                try await app.request("/api/mobile/geocode", method: .post, key: key, json: #"{"address": "57701"}"#).status == .ok
            }
            let found = try await app.request("/api/mobile/geocode", method: .post, key: key, json: #"{"address": "Rapid City, SD"}"#)
            let forward = try Client.decode(Client.Geocode.self, Data(buffer: found.body))
            #expect(forward.success && forward.input == "Rapid City, SD")
            #expect(abs((forward.result?.latitude ?? 0) - 44.08) < 0.01 && forward.result?.source == "geonames")
            // Components instead of one string; input is still a string.
            let parts = try Client.decode(Client.Geocode.self, Data(buffer: try await app.request("/api/mobile/geocode", method: .post, key: key,
                json: #"{"city": "Rapid City", "state": "SD", "zipCode": "57701"}"#).body))
            #expect(parts.success && parts.input == "Rapid City, SD 57701" && parts.result?.source == "zip")
            let none = try await app.request("/api/mobile/geocode", method: .post, key: key, json: #"{"address": "Atlantis, ZZ"}"#)
            #expect(none.status == .ok)
            let missing = try Client.decode(Client.Geocode.self, Data(buffer: none.body))
            #expect(!missing.success && missing.result == nil)
            #expect(try await app.request("/api/mobile/geocode", method: .post, key: key, json: "{}").status == .unprocessableContent)
            #expect(try await app.request("/api/mobile/geocode", method: .post, key: key, json: #"{"address": 5}"#).status == .badRequest)

            let reverse = try await app.request("/api/mobile/reverse-geocode", method: .post, key: key, json: #"{"latitude": 44.08, "longitude": -103}"#)
            let place = try Client.decode(Client.Reverse.self, Data(buffer: reverse.body))
            #expect(place.success && place.input?.latitude == 44.08 && place.input?.longitude == -103) // input is an object here
            #expect(place.result?.state == "SD" && place.result?.country == "US")
            #expect(try await app.request("/api/mobile/reverse-geocode", method: .post, key: key, json: #"{"latitude": 91, "longitude": 0}"#).status == .unprocessableContent)
            #expect(try await app.request("/api/mobile/reverse-geocode", method: .post, key: key, json: #"{"latitude": "x", "longitude": 0}"#).status == .badRequest)
            #expect(try await app.request("/api/mobile/reverse-geocode", method: .post, json: #"{"latitude": 1, "longitude": 0}"#).status == .unauthorized)
        }
    }

    /// `/ready` says 503 while the gazetteer loads (the iOS app does not retry a geocode), and a
    /// file that cannot load is not waited for: the rest of the role serves.
    @Test func whileTheGazetteerLoadsAnswersAre503WithRetryAfterAndNotReady() async throws {
        let waiting = Geocoder(path: Repository.path("Tests/Fixtures/gazetteer-sample.tsv"))
        #expect(waiting.notReady == "the gazetteer is still loading")
        // The domain says "loading"; the HTTP boundary makes it a 503 with Retry-After.
        let error = await #expect(throws: GeocodeError.self) { _ = try await waiting.forward("Rapid City, SD") }
        #expect(error?.code == .loading)
        #expect(error?.apiError.status == .serviceUnavailable && error?.apiError.headers[.retryAfter] == "2")
        waiting.load()
        #expect(waiting.notReady == nil)
        #expect(try await waiting.forward("Rapid City, SD")?.city == "Rapid City")
        let missing = Geocoder(path: "/nonexistent/places.tsv")
        missing.load()
        #expect(missing.loadError?.contains("make gazetteer") == true)
        #expect(missing.notReady == nil)
    }

    @Test func natsRequestReplyAndEnrichmentOfSubmissionsWithoutCoordinates() async throws {
        try await apps.withTestApp(["ingest", "geocode"]) { app in
            // The process's own geocoder, loaded by its GazetteerLoader; this copy of the role's endpoints answers on NATS.
            try await eventually("gazetteer loaded") { Geocoder.shared(in: app.env.environment).gazetteer != nil }
            let geocode = try #require(apps.modules(["geocode"], environment: app.env.environment).first)
            let service = MicroService(connection: app.env.connection, name: "muster-geocode", version: "test", description: "geocode",
                                       endpoints: geocode.endpoints(in: app.env.environment))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await service.run() }
                try await eventually("geocode listening") {
                    (try? await app.env.connection.request("$SRV.PING.muster-geocode", timeout: .milliseconds(200))) != nil
                }
                let reply = try await app.env.connection.request("svc.geocode.forward", payload: Data(#"{"address": "57701"}"#.utf8))
                #expect(String(decoding: reply.payload, as: UTF8.self).contains(#""zipCode":"57701""#))
                let reverse = try await app.env.connection.request("svc.geocode.reverse", payload: Data(#"{"latitude": 44.08, "longitude": -103.23}"#.utf8))
                #expect(String(decoding: reverse.payload, as: UTF8.self).contains("Rapid City"))
                let bad = try await app.env.connection.request("svc.geocode.reverse", payload: Data(#"{"latitude": 99}"#.utf8))
                #expect(bad.headers["Nats-Service-Error-Code"] == "400")
                group.cancelAll()
            }

            let key = try await app.key([OPLScopes.submitStrike])
            let body = OPLWriteContractTests.android.replacingOccurrences(of: "\"Unknown\"", with: "\"Rapid City, SD\"")
            let id = try Client.decode(Client.Submitted.self, Data(buffer: try await app.request("/api/mobile/submit-strike", method: .post,
                                                                                               key: key, json: body).body)).id
            try await eventually("geocoded") { !(try await app.log.read(filter: "events.opl.action.\(id).geocoded.v1")).isEmpty }
            let geocoded = try #require(try await app.log.read(filter: "events.opl.action.\(id).geocoded.v1").first?.payload as? ActionGeocoded)
            #expect(abs(geocoded.latitude - 44.08) < 0.01 && geocoded.source == "geonames")
            // "Unknown" is left alone (moderation flags it instead).
            let unknown = try Client.decode(Client.Submitted.self, Data(buffer: try await app.request("/api/mobile/submit-strike", method: .post,
                                                                                                    key: key, json: OPLWriteContractTests.android).body)).id
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await app.log.read(filter: "events.opl.action.\(unknown).geocoded.v1").isEmpty)
        }
    }
}

/// The optional upstream, against a local HTTP server answering as Nominatim does (the real one
/// cannot be reached from here; the client code path is the real one).
@Suite("OPL geocoding: Nominatim-compatible upstream for street addresses")
struct GeocodeUpstreamTests {
    @Test func streetAddressesAskTheUpstreamAndFallBackWhenItFails() async throws {
        let router = Router()
        router.get("/search") { request, _ -> Response in
            let q = request.uri.queryParameters["q"].map(String.init) ?? ""
            #expect(request.uri.queryParameters["format"] == "jsonv2")
            if q.contains("500") { return Response(status: .internalServerError) }
            let body = q.hasPrefix("512 Main") ? #"[{"lat": "44.0812", "lon": "-103.2285", "display_name": "512, Main Street, Rapid City, SD 57701"}]"# : "[]"
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let server = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                                 onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.runService() }
            var ports = stream.makeAsyncIterator()
            let port = try #require(await ports.next())
            let gazetteer = try Gazetteer(contentsOf: Repository.path("Tests/Fixtures/gazetteer-sample.tsv"))
            var upstream = NominatimClient(searchURL: "http://127.0.0.1:\(port)/search")
            upstream.timeout = .seconds(30) // the 3 s of production is not a bound beside the whole suite on two cores
            let geocoder = Geocoder(gazetteer: gazetteer, upstream: upstream)

            let street = try #require(try await geocoder.forward("512 Main St, Rapid City, SD 57701"))
            #expect(street.source == "upstream" && street.confidence == 0.95 && street.latitude == 44.0812)
            // Towns and ZIPs never leave the machine.
            #expect(try await geocoder.forward("Rapid City, SD")?.source == "geonames")
            // Upstream without a match, or failing: the gazetteer answers with lower confidence.
            #expect(try await geocoder.forward("9 Nowhere Rd, Rapid City, SD 57701")?.source == "zip")
            #expect(try await geocoder.forward("500 Error Ave, Rapid City, SD")?.source == "geonames")
            let down = Geocoder(gazetteer: gazetteer, upstream: NominatimClient(searchURL: "http://127.0.0.1:1/search"))
            #expect(try await down.forward("512 Main St, Rapid City, SD 57701")?.source == "zip")
            group.cancelAll()
        }
    }
}
