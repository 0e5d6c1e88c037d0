import Foundation
import Hummingbird
import HummingbirdCore
@testable import MusterAnalytics
import MusterEvents
@testable import MusterOPL
import MusterRuntime

extension FuzzTarget {
    /// Request targets as the fast path, the OPL read routes, the moderation queue and the
    /// analytics queries read them.
    static func query(_ bytes: [UInt8]) {
        let target = String(decoding: bytes, as: UTF8.self)
        _ = MobileReadRoutes.fastPathKey(target: target)
        let uri = URI(target)
        let query = QueryParameters(uri.queryParameters)
        _ = try? MobileReadRoutes.dataQuery(query)
        _ = try? MobileReadRoutes.blocklistQuery(query)
        _ = try? ModerationRoutes.queueFilter(query)
        for (_, value) in uri.queryParameters { _ = try? AnalyticsQueries.time(value, "since") }
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
        if let form = try? URLEncodedFormDecoder().decode(ModerationPageRoutes.Form.self, from: text) {
            _ = try? ModerationPageRoutes.approveEdits(form)
        }
        let data = Data(bytes)
        _ = try? JSONDecoder().decode(ApproveEdits.self, from: data)
        _ = try? JSONDecoder().decode(DecisionRequest.self, from: data)
        _ = try? JSONDecoder().decode(SnapshotApproval.self, from: data)
    }
}
