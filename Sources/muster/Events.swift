import ArgumentParser
import Foundation
import MusterEvents
import MusterRuntime
import MusterServices

struct Events: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List every event type with its versions, schema and how long the log keeps it.")

    func run() throws {
        let catalog = MusterProcess.apps.catalog
        print("TYPE".padding(toLength: 34, withPad: " ", startingAt: 0) + "SWIFT TYPE".padding(toLength: 20, withPad: " ", startingAt: 0)
              + "KEPT".padding(toLength: 10, withPad: " ", startingAt: 0) + "SCHEMA")
        for type in catalog.types {
            var line = type.description.padding(toLength: 34, withPad: " ", startingAt: 0)
            line += (catalog.swiftTypeName(type) ?? "").padding(toLength: 20, withPad: " ", startingAt: 0)
            line += catalog.retention(of: type).description.padding(toLength: 10, withPad: " ", startingAt: 0)
            line += type.schemaPath
            if let target = catalog.upcastTarget(of: type) { line += "  (read as \(target))" }
            print(line)
        }
    }
}
