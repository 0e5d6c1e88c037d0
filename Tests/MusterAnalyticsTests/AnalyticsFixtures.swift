import CompressNIO
import Foundation
import HTTPTypes
import HummingbirdTesting
import MusterEvents
import MusterLog
import MusterNATS
import NIOCore

/// Batches in the wire format, written as the apps would send them.
enum Wire {
    static let context = #"{"app_version":"2.3.0","build":"412","os_name":"iOS","os_version":"17.5","device_model":"iPhone15,2","anonymous_id":"inst-1"}"#

    static func batch(sentAt: String = Timestamp.string(millis: now()), context: String = context, _ events: [String]) -> String {
        #"{"sent_at":"\#(sentAt)","context":\#(context),"events":[\#(events.joined(separator: ","))]}"#
    }

    static func screenView(_ id: String, screen: String = "Services", session: String = "s-1", at: String = Timestamp.string(millis: now()),
                           duration: Int? = 1200) -> String {
        #"{"id":"\#(id)","type":"screen_view","created_at":"\#(at)","session_id":"\#(session)","screen":"\#(screen)"\#(duration.map { #","duration_ms":\#($0)"# } ?? "")}"#
    }

    static func tti(_ id: String, screen: String = "Services", ms: Int, source: String = "network", session: String = "s-1",
                    at: String = Timestamp.string(millis: now())) -> String {
        #"{"id":"\#(id)","type":"time_to_interactive","created_at":"\#(at)","session_id":"\#(session)","screen":"\#(screen)","duration_ms":\#(ms),"source":"\#(source)"}"#
    }

    static func apiCall(_ id: String, endpoint: String = "/bookings", method: String = "POST", status: Int, failed: Bool = false,
                        session: String = "s-1", at: String = Timestamp.string(millis: now())) -> String {
        let error = failed || status >= 500 ? #","error":{"type":"server","message":"failed for jane@example.com"}"# : ""
        return #"{"id":"\#(id)","type":"api_call","created_at":"\#(at)","session_id":"\#(session)","method":"\#(method)","endpoint":"\#(endpoint)","status":\#(status),"retry_count":1\#(error)}"#
    }

    static func funnel(_ id: String, step: String, segment: String = "new", session: String = "s-1", at: String = Timestamp.string(millis: now())) -> String {
        #"{"id":"\#(id)","type":"funnel_step","created_at":"\#(at)","session_id":"\#(session)","funnel":"booking","step":"\#(step)","segment":"\#(segment)"}"#
    }

    static func crashes(sentAt: String = Timestamp.string(millis: now()), _ reports: [String]) -> String {
        #"{"sent_at":"\#(sentAt)","reports":[\#(reports.joined(separator: ","))]}"#
    }

    static func crash(_ id: String, session: String = "s-1", type: String = "EXC_BAD_ACCESS", function: String = "BookingView.submit()",
                      version: String = "2.3.0", at: String = Timestamp.string(millis: now())) -> String {
        let context = #"{"app_version":"\#(version)","os_name":"iOS","os_version":"17.5","device_model":"iPhone15,2"}"#
        return #"{"id":"\#(id)","created_at":"\#(at)","session_id":"\#(session)","context":\#(context),"exception":{"type":"\#(type)","reason":"boom"},"frames":[{"function":"\#(function)","module":"OFFLEASH","file":"BookingView.swift","line":88,"in_app":true},{"function":"UIApplicationMain","module":"UIKitCore","in_app":false}],"breadcrumbs":[{"timestamp":"\#(at)","category":"navigation","message":"Services -> Booking"}]}"#
    }

    static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    static func gzip(_ text: String) throws -> ByteBuffer {
        var buffer = ByteBuffer(string: text)
        return try buffer.compress(with: .gzip)
    }
}

extension EventLog {
    /// Every stored message of a stream, raw: what is really on disk.
    func rawMessages(stream: String) async throws -> [StoredMessageText] {
        let info = try await jetStream.streamInfo(stream)
        guard info.state.messages > 0 else { return [] }
        var out: [StoredMessageText] = []
        for sequence in info.state.firstSeq...info.state.lastSeq {
            let message = try await jetStream.getMessage(stream: stream, sequence: sequence)
            out.append(StoredMessageText(subject: message.subject, reason: message.headers["Muster-DLQ-Reason"],
                                         text: String(decoding: message.payload, as: UTF8.self)))
        }
        return out
    }
}

struct StoredMessageText: Sendable {
    var subject: String
    var reason: String?
    var text: String
}
