import ArgumentParser
import Foundation
import Logging
import MusterCommandLine
import MusterEvents
import MusterLog
import MusterNATS
import MusterPlatform
import MusterRuntime
import MusterServices

struct PeopleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "people",
        abstract: "Organisations and people: create an organisation, add a person with a role, change it, suspend, reinstate, forget.",
        subcommands: [CreateOrg.self, Add.self, Role.self, Suspend.self, Reinstate.self, Forget.self])

    /// Runs `body` with the platform's people over a fold of the log made for this command; the
    /// fold's consumer is removed afterwards.
    static func withPeople<T: Sendable>(_ common: CommonOptions, _ body: @escaping @Sendable (People) async throws -> T) async throws -> T {
        try await common.withLog { log, _, logger in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("muster-people-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let instance = "cli-\(UInt32.random(in: .min ... .max))"
            let runner = ProjectionRunner(PeopleProjection.self, log: log, store: SnapshotStore(directory: directory),
                                          instance: instance, logger: logger)
            let passwords = PasswordHasher(threads: 1)
            let people = People(log: log, runner: runner, passwords: passwords, apps: MusterProcess.apps.directory)
            let result = try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask {
                    await runner.runUntilCancelled()
                    return nil
                }
                let deadline = ContinuousClock.now + .seconds(60)
                while await !runner.caughtUp {
                    guard ContinuousClock.now < deadline else { throw CommandFailure("the people fold did not catch up within 60 s") }
                    try await Task.sleep(for: .milliseconds(20))
                }
                let result = try await body(people)
                group.cancelAll()
                return result
            }
            _ = try? await log.jetStream.deleteConsumer(stream: log.configuration.eventsStream,
                                                        name: PeopleProjection.consumerName(instance: instance))
            await passwords.shutdown()
            return result
        }
    }

    /// `field: manager, worker; offleash: …`, for help texts.
    static var rolesByApp: String {
        let directory = MusterProcess.apps.directory
        return directory.clientApps.sorted().map { "\($0): \(directory.roles(of: $0).sorted().joined(separator: ", "))" }.joined(separator: "; ")
    }

    struct CreateOrg: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create-org",
            abstract: "Create an organisation people sign in to (idempotent on the slug).")

        @Option(name: .long, help: "What clients send as org_slug: lowercase letters, digits and -.")
        var slug: String
        @Option(name: .long, help: "The app its people use: \(MusterProcess.apps.directory.clientApps.sorted().joined(separator: ", ")).")
        var app: String
        @Option(name: .long, help: "Its name, as people see it.")
        var name: String
        @OptionGroup var common: CommonOptions

        func run() async throws {
            let (slug, app, name) = (slug, app, name)
            let org = try await PeopleCommand.withPeople(common) { people in
                try await people.createOrganisation(slug: slug, app: app, name: name)
            }
            print("organisation \(org.slug) (\(org.app)): \(org.orgId)")
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a person with a role; the password is read from standard input.",
            discussion: "The same rules as the app's sign-up apply (email pattern, password of 8+ characters with an uppercase letter and a digit).")

        @Option(name: .long, help: "The organisation's slug.")
        var org: String
        @Option(name: .long, help: "A role of the organisation's app (\(PeopleCommand.rolesByApp)).")
        var role: String
        @Option(name: .long) var email: String
        @Option(name: .long) var firstName: String
        @Option(name: .long) var lastName: String
        @Option(name: .long) var phone: String?
        @OptionGroup var common: CommonOptions

        func run() async throws {
            let password = readLine(strippingNewline: true) ?? ""
            let registration = People.Registration(orgSlug: org, email: email, firstName: firstName, lastName: lastName,
                                                   phone: phone, password: password, role: role)
            do {
                let person = try await PeopleCommand.withPeople(common) { try await $0.addPerson(registration) }
                print("\(person.role) \(person.personId) in \(org)")
            } catch let error as AccountError {
                throw CommandFailure(error.message)
            }
        }
    }

    /// Who a command acts on: their id, or their organisation and sign-in email.
    struct PersonOptions: ParsableArguments {
        @Argument(help: "The person's id (a UUID).")
        var personId: String?
        @Option(name: .long, help: "With --email: the organisation's slug.")
        var org: String?
        @Option(name: .long, help: "With --org: the email the person signs in with.")
        var email: String?

        func validate() throws {
            guard (personId != nil) != (org != nil && email != nil) else {
                throw ValidationError("give a person id, or both --org and --email")
            }
        }

        func resolve(_ people: People) async throws -> String {
            if let personId { return personId }
            guard let org, let email, let id = try await people.personId(orgSlug: org, email: email) else {
                throw CommandFailure("no person signs in to \(org ?? "?") with that email")
            }
            return id
        }
    }

    /// Runs `change` on the person `person` names, as `cli:<user>`; an account error is the command's failure.
    static func change(_ person: PersonOptions, _ common: CommonOptions,
                       _ change: @escaping @Sendable (People, String, String) async throws -> Void) async throws -> String {
        try await withPeople(common) { people in
            let id = try await person.resolve(people)
            do { try await change(people, id, "cli:\(NSUserName())") } catch let error as AccountError { throw CommandFailure(error.message) }
            return id
        }
    }

    struct Role: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give a person another role of their organisation's app; their sessions end, so new tokens carry it.")

        @OptionGroup var person: PersonOptions
        @Option(name: .long, help: "A role of the organisation's app (\(PeopleCommand.rolesByApp)).")
        var role: String
        @OptionGroup var common: CommonOptions

        func run() async throws {
            let role = role
            let id = try await PeopleCommand.change(person, common) { try await $0.reassign($1, role: role, by: $2) }
            print("\(id) is now \(role); their sessions ended")
        }
    }

    struct Suspend: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stop a person signing in (any method) until reinstated; their sessions end. Nothing of theirs is deleted.")

        @OptionGroup var person: PersonOptions
        @Option(name: .long, help: "Why (1 to 500 characters; kept in the log).")
        var reason: String
        @OptionGroup var common: CommonOptions

        func run() async throws {
            let reason = reason
            let id = try await PeopleCommand.change(person, common) { try await $0.suspend($1, reason: reason, by: $2) }
            print("\(id) is suspended; their sessions ended")
        }
    }

    struct Reinstate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Let a suspended person sign in again.")

        @OptionGroup var person: PersonOptions
        @OptionGroup var common: CommonOptions

        func run() async throws {
            let id = try await PeopleCommand.change(person, common) { try await $0.reinstate($1, by: $2) }
            print("\(id) may sign in again")
        }
    }

    struct Forget: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Forget a person: delete their key, so nothing sealed with it can be read again.",
            discussion: "Give the person's id, or --org and --email. The log stays append-only; every fold shows the person as erased.")

        @OptionGroup var person: PersonOptions
        @OptionGroup var common: CommonOptions

        func run() async throws {
            let forgotten = try await PeopleCommand.change(person, common) { try await $0.forget($1, requestedBy: $2) }
            print("forgot \(forgotten): their key is deleted; what was sealed with it is unreadable")
        }
    }
}
