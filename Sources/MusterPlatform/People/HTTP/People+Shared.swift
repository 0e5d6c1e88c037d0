public import Hummingbird
import HTTPTypes
import MusterEvents
public import MusterRuntime

extension People {
    /// The process's people: one fold, one password pool, one key ring, whichever apps ask.
    public static func shared(in environment: MusterEnvironment) -> People {
        environment.shared {
            People(log: environment.log, runner: environment.projections.runner(PeopleProjection.self),
                   passwords: PasswordHasher(),
                   attempts: AttemptLimiter(addressLimit: environment.configuration.loginAttemptsPerAddress),
                   tokenLifetime: environment.configuration.offleashTokenLifetime)
        }
    }

    /// The access token of `Authorization: Bearer …`, validated (401 when missing or bad).
    public func validate(_ request: Request) async throws -> AccessClaims {
        guard let token = Self.bearerToken(request.headers[.authorization]) else {
            throw AccountError(.invalidToken, "missing bearer token")
        }
        return try await validate(token)
    }

    /// The token of an `Authorization: Bearer <token>` header (the scheme in any case).
    public static func bearerToken(_ header: String?) -> String? {
        guard let header, header.utf8.count > 7, header.prefix(7).lowercased() == "bearer " else { return nil }
        let token = String(header.dropFirst(7)).trimmingWhitespace
        return token.isEmpty ? nil : token
    }

    /// The address a sign-in comes from, for the attempt limits: the connection's peer, or the
    /// gateway's `X-Real-IP` when the peer is on loopback or a private network (the compose
    /// gateway), since behind it every peer is the gateway.
    public static func clientAddress(_ request: Request, _ context: MusterRequestContext) -> String {
        let peer = context.remoteAddress ?? "unknown"
        guard isPrivate(peer), let forwarded = request.headers[.realIP], !forwarded.isEmpty, forwarded.count <= 64 else { return peer }
        return forwarded
    }

    static func isPrivate(_ address: String) -> Bool {
        if address == "::1" || address.hasPrefix("127.") || address.hasPrefix("10.") || address.hasPrefix("192.168.")
            || address.lowercased().hasPrefix("fd") { return true }
        let parts = address.split(separator: ".")
        if parts.count == 4, parts[0] == "172", let second = Int(parts[1]) { return (16...31).contains(second) }
        return false
    }
}

extension HTTPField.Name {
    // The unwrap cannot fail: a literal token (letters, digits, -) is a valid field name.
    static let realIP = HTTPField.Name("X-Real-IP")!
}
