package import MusterEvents

/// Why OFFLEASH refused, in domain terms; `OFFLEASHErrorCode+HTTP` gives the answers.
package typealias OFFLEASHError = DomainError<OFFLEASHErrorCode>

package enum OFFLEASHErrorCode: Sendable, Hashable {
    /// A field breaks its rule; the field as the contract names it (`latitude`, `start_time`).
    case invalidField(String)
    case notFound
    /// The person's role may not do this.
    case forbidden
    /// The same address twice for one customer.
    case duplicate
    /// No walker is free then, or the booking is not in a state that allows the change.
    case conflict
    /// The payment provider declined the charge (its message says why).
    case declined
    /// The payment provider is not configured, or could not be reached; trying again may work.
    case providerUnavailable
}
