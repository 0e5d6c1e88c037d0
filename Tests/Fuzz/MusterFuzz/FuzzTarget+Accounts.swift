import Foundation
import MusterJSON
@testable import MusterOFFLEASH
@testable import MusterPlatform

extension FuzzTarget {
    /// What people send when they sign in and book: emails and passwords by the app's rules, the
    /// bearer header, refresh tokens, OFFLEASH's bodies (with null allowed, as the routes read
    /// them), its dates and shift times.
    static func accounts(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let email = AccountRules.email(text) {
            require(email.filter { $0 == "@" }.count == 1, "an accepted email has one @: \(email.debugDescription)")
            require(email.first?.isWhitespace != true && email.last?.isWhitespace != true, "an accepted email is trimmed")
        }
        _ = AccountRules.passwordProblem(text)
        if let token = PlatformAuthenticator.bearerToken(text) { require(!token.isEmpty, "a bearer token is never empty") }
        if let session = People.refreshSessionID(text) { require(session.utf8.count == 36, "a refresh token names a UUID") }
        if let challenge = SecondFactor.parse(text) {
            require(challenge.signed.split(separator: ".", omittingEmptySubsequences: false).count == 3, "a challenge signs its first three parts")
        }
        if let minute = SeriesPlan.minuteOfDay(text) { require((0..<1440).contains(minute), "a clock time is within a day: \(minute)") }
        if let minutes = WalksRoutes.minutes(text) { require((0...1440).contains(minutes), "a shift time is within a day: \(minutes)") }
        _ = ContractDates.parse(text)
        _ = PhoneCodes.isE164(text)
        let slug = People.slug(text)
        require(slug.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 } && !slug.hasPrefix("-") && slug.count <= 64, "a slug: \(slug)")
        _ = try? JSONDecoder().decode(ProviderIDToken.self, from: Data(bytes)) // an ID token's claims, as jwt-kit hands them over
        _ = try? JSONDecoder().decode(StripePayments.Answer.self, from: Data(bytes)) // the payment provider's answer
        bytes.withUnsafeBufferPointer { buffer in
            let raw = UnsafeRawBufferPointer(buffer)
            let decoder = JSONBytesDecoder()
            _ = try? decoder.decode(RegisterRequest.self, from: raw)
            _ = try? decoder.decode(LoginRequest.self, from: raw)
            _ = try? decoder.decode(VerifyEmailRequest.self, from: raw) // every app's sign-in (`AccountRoutes`)
            _ = try? decoder.decode(ResetRequest.self, from: raw)
            _ = try? decoder.decode(ResetConfirmRequest.self, from: raw)
            _ = try? decoder.decode(ProviderSignInRequest.self, from: raw)
            _ = try? decoder.decode(CodeRequest.self, from: raw)
            _ = try? decoder.decode(SecondFactorSignInRequest.self, from: raw)
            _ = try? decoder.decode(BookingRequestBody.self, from: raw)
            _ = try? decoder.decode(RosterRequest.self, from: raw)
            _ = try? decoder.decode(RescheduleBody.self, from: raw)
            _ = try? decoder.decode(ProfileRequest.self, from: raw)
            _ = try? decoder.decode(PasswordChangeRequest.self, from: raw)
            _ = try? decoder.decode(SwitchRequest.self, from: raw)
            _ = try? decoder.decode(BlockRequest.self, from: raw)
            _ = try? decoder.decode(WalkerProfileRequest.self, from: raw)
            _ = try? decoder.decode(FeedbackRoutes.FeedbackRequest.self, from: raw)
            _ = try? decoder.decode(SendCodeRequest.self, from: raw)
            _ = try? decoder.decode(VerifyCodeRequest.self, from: raw)
            _ = try? decoder.decode(LinkGoogleRequest.self, from: raw)
            _ = try? decoder.decode(CardRequest.self, from: raw)
            _ = try? decoder.decode(PreviewRequest.self, from: raw)
            _ = try? decoder.decode(CheckoutRequest.self, from: raw)
            _ = try? decoder.decode(ConfirmRequest.self, from: raw)
            _ = try? decoder.decode(SubscriptionRequestBody.self, from: raw)
            _ = try? decoder.decode(TenantSubscriptionRequest.self, from: raw)
            _ = try? decoder.decode(CreateTenantRequest.self, from: raw)
            _ = try? decoder.decode(ServiceAreaRequest.self, from: raw)
            _ = try? decoder.decode(JoinTenantRequest.self, from: raw)
            if let invite = try? decoder.decode(InviteRequest.self, from: raw), let contact = try? Invitations.contact(email: invite.email, phone: invite.phone) {
                if case .phone(let phone) = contact { require(PhoneCodes.isE164(phone), "an invited number is E.164: \(phone)") }
                if case .email(let email) = contact { require(AccountRules.email(email) == email && email == email.lowercased(), "an invited email is normalised") }
            }
            if let pet = try? decoder.decode(PetRequest.self, from: raw) {
                var details = PetDetails(name: "x", species: "dog")
                if (try? Walks.apply(pet.edit, to: &details, now: Date())) != nil {
                    require(PetDetails.species.contains(details.species) && !details.name.isEmpty, "a saved pet has a known species and a name")
                }
            }
            if let recurring = try? decoder.decode(RecurringRequest.self, from: raw), let plan = try? Walks.plan(recurring.request) {
                require(plan.days.count <= 60 && (0..<1440).contains(plan.minuteOfDay), "a series has at most 60 dates in a day's minutes")
            }
            if let location = try? decoder.decode(LocationRequest.self, from: raw), let details = location.details(), let checked = try? Walks.checked(details) {
                require((-90...90).contains(checked.latitude) && (-180...180).contains(checked.longitude), "checked coordinates are in range")
            }
        }
    }
}
