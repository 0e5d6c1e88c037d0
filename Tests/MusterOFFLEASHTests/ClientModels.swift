import Foundation

/// Strict mirrors of the contract (`contracts/offleash-api.md`), written from it and not from
/// our types: snake_case keys, dates without fractions, as the app decodes them.
struct ContractUser: Decodable, Equatable {
    var id: String
    var email: String
    var firstName: String
    var lastName: String
    var role: String
    var organizationId: String
    enum CodingKeys: String, CodingKey {
        case id, email, firstName = "first_name", lastName = "last_name", role, organizationId = "organization_id"
    }
}

struct ContractSignedIn: Decodable {
    var token: String
    var user: ContractUser
}

/// What a refreshing client reads besides the contract's two fields.
struct ContractRefreshable: Decodable {
    var token: String
    var refreshToken: String
    var expiresAt: Date
    enum CodingKeys: String, CodingKey { case token, refreshToken = "refresh_token", expiresAt = "expires_at" }
}

struct ContractValidate: Decodable {
    var valid: Bool
    var expiresAt: Date
    var user: ContractUser
    enum CodingKeys: String, CodingKey { case valid, expiresAt = "expires_at", user }
}

struct ContractError: Decodable { var error: String }

/// The app's decoder: ISO-8601 without fractional seconds (it refuses `…00.123Z`).
let appDecoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
}()
