import Foundation
import MusterEvents
import MusterLog
import MusterRuntime
package import MusterPlatform

/// A checkout's amounts.
package struct PriceBreakdown: Sendable, Equatable {
    package var subtotalCents: Int
    package var tipCents: Int
    package var feeCents: Int
    package var feeBasisPoints: Int
    package var taxCents: Int
    package var totalCents: Int { subtotalCents + tipCents + feeCents + taxCents }
}

extension Walks {
    // MARK: Payment methods

    /// The caller's saved methods, oldest first.
    package func cards(_ claims: AccessClaims) async -> [OFFLEASHProjection.Card] {
        await runner.read { state in state.cards.values.filter { claims.owns($0.saved.customerId, in: $0.saved.orgId) } }
            .sorted { $0.createdSequence < $1.createdSequence }
    }

    package func saveCard(_ claims: AccessClaims, methodType: String, brand: String?, lastFour: String?, expMonth: Int?, expYear: Int?,
                         nickname: String?, isDefault: Bool?) async throws -> OFFLEASHProjection.Card {
        guard CardSaved.methodTypes.contains(methodType) else { throw OFFLEASHError(.invalidField("method_type"), "method_type must be card, apple_pay or bank_account") }
        if methodType == "card" {
            guard let lastFour, lastFour.count == 4, lastFour.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw OFFLEASHError(.invalidField("card_last_four"), "card_last_four must be 4 digits")
            }
            guard let expMonth, (1...12).contains(expMonth) else { throw OFFLEASHError(.invalidField("card_exp_month"), "card_exp_month must be 1 to 12") }
            guard let expYear, (2000...2100).contains(expYear) else { throw OFFLEASHError(.invalidField("card_exp_year"), "card_exp_year must be a four-digit year") }
        }
        let hasAny = await runner.read { state in state.cards.values.contains { claims.owns($0.saved.customerId) } }
        let card = CardSaved(methodId: SecureRandom.uuidString(), customerId: claims.personId, orgId: claims.org, methodType: methodType,
                             brand: brand.map { String($0.lowercased().prefix(32)) }.flatMap { $0.isEmpty ? nil : $0 }, lastFour: methodType == "card" ? lastFour : nil,
                             expMonth: methodType == "card" ? expMonth : nil, expYear: methodType == "card" ? expYear : nil,
                             nickname: nickname?.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty.map { String($0.prefix(100)) },
                             isDefault: (isDefault ?? true) || !hasAny)
        try await append(card, actor: claims.personId, options: AppendOptions(expected: .noEvents))
        guard let saved = await runner.read({ $0.cards[card.methodId] }) else { throw OFFLEASHError(.conflict, "The card is still being saved; reload") }
        return saved
    }

    package func changeCard(_ claims: AccessClaims, methodId: String, to change: String) async throws -> OFFLEASHProjection.Card? {
        guard let card = await runner.read({ $0.cards[methodId] }), claims.owns(card.saved.customerId) else {
            throw OFFLEASHError(.notFound, "no payment method \(methodId.prefix(64))")
        }
        try await append(CardChanged(methodId: methodId, customerId: claims.personId, change: change), actor: claims.personId)
        return await runner.read { $0.cards[methodId] }
    }

    // MARK: Checkout

    /// What a checkout of `subtotal` and `tip` costs: the organisation's customer fee on the
    /// subtotal (the tip is the walker's, untouched), no tax (the app never says where the customer is).
    package func preview(org: String, subtotalCents: Int, tipCents: Int) async throws -> PriceBreakdown {
        guard (0...1_000_000).contains(subtotalCents) else { throw OFFLEASHError(.invalidField("subtotal_cents"), "subtotal_cents must be 0 to 1000000") }
        guard (0...1_000_000).contains(tipCents) else { throw OFFLEASHError(.invalidField("tip_cents"), "tip_cents must be 0 to 1000000") }
        let basisPoints = await customerFee(org: org)
        let fee = (subtotalCents * basisPoints + 5_000) / 10_000
        return PriceBreakdown(subtotalCents: subtotalCents, tipCents: tipCents, feeCents: fee, feeBasisPoints: basisPoints, taxCents: 0)
    }

    /// The organisation's customer fee: its plan's while the plan is active, else the default (Free's 3 %).
    func customerFee(org: String) async -> Int {
        let plan = await runner.read { $0.subscriptions[Self.derivedID("tenant-subscription", org)]?.value }
        guard let plan, plan.status == "active", let tier = FeeTier.all.first(where: { $0.tier == plan.planTier }) else { return customerFeeBasisPoints }
        return tier.customerFeeBasisPoints
    }

    /// Prices a booking's payment: the caller's own, not cancelled, not paid. The amount is the
    /// booking's price, whatever the app sent; an unpaid checkout of the booking is reused.
    package func checkout(_ claims: AccessClaims, bookingId: String, tipCents: Int) async throws -> OFFLEASHProjection.Transaction {
        guard UUID(uuidString: bookingId) != nil else {
            throw OFFLEASHError(.invalidField("booking_id"), "Pay for recurring walks one walk at a time, from the Bookings tab")
        }
        for _ in 0..<3 {
            let (booking, transactions) = await runner.read { state in
                (state.bookings[bookingId], (state.transactionsByBooking[bookingId] ?? []).compactMap { state.transactions[$0] })
            }
            guard let booking, claims.owns(booking.customerId) else { throw OFFLEASHError(.notFound, "no booking \(bookingId.prefix(64))") }
            guard booking.status != "cancelled" else { throw OFFLEASHError(.conflict, "That walk was cancelled") }
            guard !transactions.contains(where: { ["succeeded", "refunded"].contains($0.status) }) else { throw OFFLEASHError(.conflict, "That walk is paid already") }
            let price = try await preview(org: claims.org, subtotalCents: booking.priceCents, tipCents: tipCents)
            let pending = transactions.last { $0.status == "pending" }
            let transactionId = pending?.priced.transactionId ?? Self.derivedID("payment", bookingId, String(transactions.count))
            let priced = PaymentPriced(transactionId: transactionId, bookingId: bookingId, customerId: claims.personId, walkerId: booking.walkerId,
                                       orgId: claims.org, subtotalCents: price.subtotalCents, tipCents: price.tipCents, feeCents: price.feeCents,
                                       feeBasisPoints: price.feeBasisPoints, taxCents: price.taxCents, totalCents: price.totalCents)
            if pending?.priced == priced, let pending { return pending }
            do {
                try await append(priced, actor: claims.personId, options: AppendOptions(expected: pending.map { .at($0.sequence) } ?? .noEvents))
                if let made = await runner.read({ $0.transactions[transactionId] }) { return made }
            } catch let error as AppendError where error.code == .conflict {
                try await catchUp()
            }
        }
        throw OFFLEASHError(.conflict, "The payment changed meanwhile; try again")
    }

    /// Charges a priced checkout with one of the caller's methods, before answering. Asked
    /// again (the app retries), it answers what the first confirm recorded; a decline is a 402
    /// with the provider's message, and the booking can be paid again with another card.
    package func confirm(_ claims: AccessClaims, transactionId: String, methodId: String) async throws -> OFFLEASHProjection.Transaction {
        guard let transaction = await runner.read({ $0.transactions[transactionId] }), claims.owns(transaction.priced.customerId) else {
            throw OFFLEASHError(.notFound, "no transaction \(transactionId.prefix(64))")
        }
        switch transaction.status {
        case "succeeded", "refunded": return transaction
        case "failed": throw OFFLEASHError(.declined, transaction.failureReason ?? "The payment was declined")
        default: break
        }
        guard let card = await runner.read({ $0.cards[methodId] }), claims.owns(card.saved.customerId) else {
            throw OFFLEASHError(.notFound, "no payment method \(methodId.prefix(64))")
        }
        let outcome = try await payments.charge(PaymentCharge(idempotencyKey: transactionId, amountCents: transaction.priced.totalCents,
                                                              brand: card.saved.brand, lastFour: card.saved.lastFour, methodType: card.saved.methodType))
        let settled = PaymentSettled(transactionId: transactionId, outcome: outcome.succeeded ? "succeeded" : "failed", methodId: methodId,
                                     providerReference: outcome.reference, amountCents: transaction.priced.totalCents, reason: outcome.declineMessage)
        do {
            try await append(settled, actor: claims.personId, options: AppendOptions(expected: .at(transaction.sequence)))
        } catch let error as AppendError where error.code == .conflict {
            try await catchUp() // another confirm (or a re-pricing) recorded first: answer what is recorded
            guard let now = await runner.read({ $0.transactions[transactionId] }), now.status != "pending" else {
                throw OFFLEASHError(.conflict, "The payment changed meanwhile; try again")
            }
            if now.status == "failed" { throw OFFLEASHError(.declined, now.failureReason ?? "The payment was declined") }
            return now
        }
        guard outcome.succeeded else { throw OFFLEASHError(.declined, outcome.declineMessage ?? "The payment was declined") }
        guard let paid = await runner.read({ $0.transactions[transactionId] }) else { throw OFFLEASHError(.conflict, "The payment is still being recorded") }
        return paid
    }

    /// Refunds the whole total of a succeeded payment, once: the paying customer or an admin.
    package func refund(_ claims: AccessClaims, transactionId: String) async throws -> OFFLEASHProjection.Transaction {
        guard let transaction = await runner.read({ $0.transactions[transactionId] }),
              claims.ownsOrAdministers(transaction.priced.customerId, in: transaction.priced.orgId) else {
            throw OFFLEASHError(.notFound, "no transaction \(transactionId.prefix(64))")
        }
        guard transaction.status == "succeeded", let reference = transaction.providerReference else {
            throw OFFLEASHError(.invalidField("status"), "Only a completed payment can be refunded; this one is \(transaction.status)")
        }
        let outcome = try await payments.refund(reference: reference, amountCents: transaction.priced.totalCents, idempotencyKey: "refund-\(transactionId)")
        guard outcome.succeeded else { throw OFFLEASHError(.declined, outcome.declineMessage ?? "The refund was refused") }
        let settled = PaymentSettled(transactionId: transactionId, outcome: "refunded", methodId: nil, providerReference: outcome.reference,
                                     amountCents: transaction.priced.totalCents, reason: nil)
        do {
            try await append(settled, actor: claims.personId, options: AppendOptions(expected: .at(transaction.sequence)))
        } catch let error as AppendError where error.code == .conflict {
            try await catchUp()
            throw OFFLEASHError(.invalidField("status"), "This payment was refunded already")
        }
        guard let refunded = await runner.read({ $0.transactions[transactionId] }) else { throw OFFLEASHError(.conflict, "The refund is still being recorded") }
        return refunded
    }

    /// The caller's transactions, as customer or as walker, newest first.
    package func transactions(_ claims: AccessClaims) async -> [OFFLEASHProjection.Transaction] {
        await runner.read { state in
            state.transactions.values.filter { claims.owns($0.priced.customerId, in: $0.priced.orgId) || claims.owns($0.priced.walkerId, in: $0.priced.orgId) }
        }.sorted { $0.priced.transactionId > $1.priced.transactionId }.sorted { $0.createdAt > $1.createdAt }
    }

    package func transaction(_ claims: AccessClaims, transactionId: String) async throws -> OFFLEASHProjection.Transaction {
        guard let transaction = await runner.read({ $0.transactions[transactionId] }),
              claims.owns(transaction.priced.customerId) || claims.owns(transaction.priced.walkerId) else {
            throw OFFLEASHError(.notFound, "no transaction \(transactionId.prefix(64))")
        }
        return transaction
    }
}
