import Foundation
import MusterNATS
@testable import MusterOPL
@testable import MusterPlatform

extension FuzzTarget {
    /// The NATS request endpoints (`muster.ingest.append`, `svc.geocode.forward` and `.reverse`)
    /// read any bytes without trapping, and refuse what they cannot take with a 4xx code.
    static func natsRequests(_ bytes: [UInt8]) {
        let data = Data(bytes)
        func refusedWith4xx(_ body: () throws -> Void) {
            do { try body() } catch let error as MicroServiceError {
                require((400..<500).contains(error.code), "refused with \(error.code): \(error)")
            } catch {
                require(false, "not a MicroServiceError: \(error)")
            }
        }
        refusedWith4xx { _ = try LogAppendEndpoint.parse(data, catalog: catalog, maxBytes: 256 * 1024) }
        refusedWith4xx { _ = try GeocodeEndpoints.forwardQuery(data) }
        refusedWith4xx { _ = try GeocodeEndpoints.reverseQuery(data) }
    }
}
