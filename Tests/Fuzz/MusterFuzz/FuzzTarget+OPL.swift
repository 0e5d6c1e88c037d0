import Foundation
import Hummingbird
import HummingbirdCore
@testable import MusterAnalytics
import MusterEvents
@testable import MusterOPL
import MusterRuntime

extension FuzzTarget {
    /// Request targets as the fast path, the OPL read routes, the moderation queue and the
    /// analytics queries read them; the bytes as a whole request head, and as the target of one,
    /// as the fast path's listener reads them (a head it takes reads back the same when written
    /// out again).
    static func query(_ bytes: [UInt8]) {
        heads(bytes)
        heads(Array("GET ".utf8) + bytes + Array(" HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        let target = String(decoding: bytes, as: UTF8.self)
        _ = MobileReadRoutes.fastPathKey(target: target)
        let uri = URI(target)
        let query = QueryParameters(uri.queryParameters)
        _ = try? MobileReadRoutes.dataQuery(query)
        _ = try? MobileReadRoutes.blocklistQuery(query)
        _ = try? ModerationRoutes.queueFilter(query)
        for (_, value) in uri.queryParameters { _ = try? AnalyticsQueries.time(value, "since") }
    }

    private static func heads(_ bytes: [UInt8]) {
        guard let head = bytes.withUnsafeBytes({ PlainGetHead($0) }) else { return }
        require(head.target.first == "/", "target \(head.target)")
        // No space after the colons: written out, a head is never longer than the one read.
        var text = "GET \(head.target) HTTP/1.1\r\n" + (head.host.map { "Host:\($0)\r\n" } ?? "")
        for field in head.fields { text += "\(field.name.rawName):\(field.value)\r\n" }
        text += "\r\n"
        let again = Array(text.utf8).withUnsafeBytes { PlainGetHead($0) }
        require(again?.target == head.target && again?.host == head.host && again?.fields == head.fields, "\(text) reads back otherwise")
    }

    /// The three mobile write bodies, turned into the events the log would be asked to take.
    static func mobileWrites(_ bytes: [UInt8]) {
        let data = Data(bytes)
        let decoder = JSONDecoder()
        if let body = try? decoder.decode(SubmitStrikeRequest.self, from: data),
           let event = try? MobileWriteRoutes.submission(body, actionId: "act_0123456789abcdef", submittedBy: "key_0123456789abcdef") {
            check(event)
        }
        if let body = try? decoder.decode(GPSSnapshotRequest.self, from: data) {
            check(SnapshotSubmitted(snapshotId: "snp_0123456789abcdef", actionId: body.actionId, latitude: body.latitude,
                                    longitude: body.longitude, address: body.address, notes: body.notes, submittedBy: "key_0123456789abcdef"))
        }
        if let report = try? decoder.decode(DNSStatsReported.self, from: data) { check(report) }
    }

    /// The moderation page's forms (URL-encoded) and the moderation API's JSON bodies.
    static func moderationForms(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let form = try? URLEncodedFormDecoder().decode(ModerationPageRoutes.Form.self, from: text),
           let edits = try? ModerationPageRoutes.approveEdits(form) {
            reaches(edits)
        }
        let data = Data(bytes)
        if let edits = try? JSONDecoder().decode(ApproveEdits.self, from: data) { reaches(edits) }
        reaches(ApproveEdits(urls: text.split(separator: "\n").map(String.init), ownDomains: [text]))
        _ = try? JSONDecoder().decode(DecisionRequest.self, from: data)
        _ = try? JSONDecoder().decode(SnapshotApproval.self, from: data)
    }

    static let rules = BlocklistRules(suffixes: PublicSuffixList.load())

    /// Where typed entries reach: a host entry is a bare host, a page has a path, and every
    /// page has extension entries that read back as it.
    private static func reaches(_ edits: ApproveEdits) {
        let own = Set((edits.ownDomains ?? []).compactMap(BlocklistURLs.host(of:)).filter { rules.ownDomainProblem($0) == nil })
        for url in edits.urls ?? [] {
            switch rules.reach(of: url, own: own) {
            case .host(let host):
                require(!host.contains("/") && !host.contains("?") && rules.suffixes.registrableDomain(of: host).map(own.contains) == true, "host \(host)")
            case .page(let page):
                let entries = BlocklistRules.extensionEntries(page: page)
                require(page.contains("/") && !entries.isEmpty, "page \(page)")
                require(entries.last.map { String($0.filter { $0 != "\\" }) } == page, "\(entries) of \(page)")
            case .nothing: break
            }
        }
    }
}
