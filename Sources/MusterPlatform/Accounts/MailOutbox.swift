package import Logging
package import MusterRuntime
import ServiceLifecycle

/// Mails an answer must not wait for: a sign-up's or a reset's answer is the same whether or not
/// the address has an account, in its words and in its time, so the mail (sent only when it has
/// one) leaves from here, after the answer. One per process (`shared(in:)`), run as a service of
/// the ingest role; on shutdown it sends what is queued, then stops.
package final class MailOutbox: Service, Sendable {
    package struct Letter: Sendable {
        package var to: String
        package var subject: String
        package var body: String
        /// Extra headers (`List-Unsubscribe`).
        package var headers: [String: String]

        package init(to: String, subject: String, body: String, headers: [String: String] = [:]) {
            self.to = to
            self.subject = subject
            self.body = body
            self.headers = headers
        }
    }

    let mail: MailClient?
    let logger: Logger
    private let letters: AsyncStream<Letter>
    private let continuation: AsyncStream<Letter>.Continuation
    /// Letters waiting beyond this are dropped (and logged): a flood of sign-ups must not grow memory.
    static let capacity = 10_000

    package init(mail: MailClient?, logger: Logger) {
        self.mail = mail
        self.logger = logger
        (letters, continuation) = AsyncStream.makeStream(of: Letter.self, bufferingPolicy: .bufferingOldest(Self.capacity))
    }

    /// Whether mail can be sent at all (a route that must mail refuses with 503 without it).
    package var isConfigured: Bool { mail != nil }

    /// Queues a letter; never waits.
    package func post(_ letter: Letter) {
        if case .dropped = continuation.yield(letter) {
            logger.error("mail outbox full: a letter was dropped", metadata: ["subject": "\(letter.subject)"])
        }
    }

    package func run() async {
        await withGracefulShutdownHandler {
            for await letter in letters {
                guard let mail else { continue }
                do {
                    try await mail.send(to: letter.to, subject: letter.subject, body: letter.body, headers: letter.headers)
                } catch {
                    logger.warning("a mail could not be sent", metadata: ["subject": "\(letter.subject)", "error": "\(error)"])
                }
            }
        } onGracefulShutdown: { [continuation] in
            continuation.finish()
        }
    }

    /// The process's outbox, over the mail provider of `InvitationSettings` (none: letters are dropped).
    package static func shared(in environment: MusterEnvironment) -> MailOutbox {
        environment.shared {
            let settings = environment.configuration[InvitationSettings.self]
            return MailOutbox(mail: settings.mailURL.map { MailClient(baseURL: $0, key: settings.mailKey, from: settings.mailFrom) },
                              logger: environment.logger)
        }
    }
}
