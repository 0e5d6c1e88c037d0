import Foundation
import MusterAnalytics
import MusterEvents
import MusterJSON
@testable import MusterLog
import MusterNATS
@testable import MusterPoP
import MusterRuntime
import MusterServices

extension FuzzTarget {
    /// RFC 3339 times and calendar days: whatever parses is a real instant that prints and
    /// parses back to itself, and the event rule agrees with the parser.
    static func timestamps(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let millis = Timestamp.millis(text) {
            let printed = Timestamp.string(millis: millis)
            if let again = Timestamp.millis(printed) { require(again == millis, "\(text) → \(printed) → \(again)") }
        }
        if let day = Timestamp.millis(day: text) { require(day % 86_400_000 == 0, "\(text) is not midnight") }
        if (try? Validate.timestamp(text, field: "/t")) != nil {
            require(Timestamp.millis(text) != nil, "\(text) passes the rule but does not parse")
        }
    }

    /// The control-character and null scans read any bytes without trapping and name a pointer.
    static func controlCharacters(_ bytes: [UInt8]) {
        for field in [ControlCharacters.firstField(inJSON: bytes), ControlCharacters.firstNull(inJSON: bytes)].compactMap({ $0 }) {
            require(field.isEmpty || field.utf8.first == UInt8(ascii: "/"), "pointer \(field)") // "" is the whole document
        }
    }

    static let catalog = MusterProcess.apps.catalog

    /// A stored message as a consumer reads it: first line the subject (also read as the
    /// `$JS.ACK…` reply subject a delivery carries), the rest the payload.
    static func envelopes(_ bytes: [UInt8]) {
        let split = bytes.firstIndex(of: 0x0A) ?? bytes.count
        let subject = String(decoding: bytes[..<split], as: UTF8.self)
        _ = DeliveryInfo(ackSubject: subject)
        let payload = Data(bytes[min(split + 1, bytes.count)...])
        let decoded = try? catalog.decode(subject: subject, sequence: 1, payload: payload)
        // Read forward (a newer major than the catalog knows): as the newest major of the same family.
        if let decoded, decoded.storedType != decoded.type, !catalog.contains(decoded.storedType) {
            require(decoded.storedType.family == decoded.type.family && decoded.storedType.major > decoded.type.major
                        && catalog.newest(decoded.type.family) == decoded.type, "\(decoded.storedType) read as \(decoded.type)")
        }
        // The hot folds' readers of stamped events take the same bytes by hand (`StoredReader`):
        // they read or refuse, never trap; a batch both ways take reads as the decoder read it.
        for reader in FunnelProjection.storage.stored { _ = reader.read(subject: subject, payload: payload) }
        for reader in AnalyticsProjection.storage.stored { _ = reader.read(subject: subject, payload: payload) }
        for reader in CivicsProjection.storedReaders {
            guard let read = reader.read(subject: subject, payload: payload)?.fact as? CivicsProjection.Synced,
                  let synced = decoded?.payload as? ProgressSynced else { continue }
            require(read == CivicsProjection.Synced(synced), "the stored read of a valid synced batch is the decoded batch's")
            // Folded, its snapshot written by hand is the conformance's.
            var state = CivicsProjection.initialState
            CivicsProjection.fold(read, into: &state)
            struct ThroughCodable: Encodable { var state: CivicsProjection.State }
            let byHand = try? JSONBytesEncoder().encodeObject { try $0.object("state") { try state.encodeMembers(&$0) } }
            require(byHand != nil && byHand == (try? JSONBytesEncoder().encode(ThroughCodable(state: state))), "the civics snapshot by hand is the conformance's")
        }
        for reader in PoPProjection.storage.stored {
            guard let read = reader.read(subject: subject, payload: payload)?.fact as? PoPProjection.Synced,
                  let synced = decoded?.payload as? ProgressSynced else { continue }
            require(read == PoPProjection.Synced(synced), "the sync fold's stored read of a valid synced batch is the decoded batch's")
        }
    }
}
