import ArgumentParser
import Foundation
import MusterCommandLine
import MusterEvents
import MusterGeo
import MusterLog
import MusterOPL
import MusterPlatform

extension Bench {
    /// Registers `devices` iOS devices of `app` straight into the log (as the registry would),
    /// optionally opted into proximity alerts with a cell within `radius` metres of `near`.
    struct PushLoad: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "push-load")
        @Option var app = "shieldai"
        @Option var devices = 20_000
        @Option(help: "lat,lng: give each device a geohash-5 cell near here.") var near: String?
        @Option var radius = 3000.0
        @OptionGroup var common: CommonOptions

        func run() async throws {
            var cells: [String] = []
            if let near {
                let parts = near.split(separator: ",").compactMap { Double($0) }
                guard parts.count == 2 else { throw ValidationError("--near is lat,lng") }
                cells = Geohash.covering(latitude: parts[0], longitude: parts[1], radius: radius, precision: 5)
            }
            try await common.withLog { log, _, _ in
                var pending: [Task<Void, any Error>] = []
                let salt = UInt64(app.utf8.reduce(7) { ($0 &* 31 &+ UInt64($1)) & 0xffff_ffff })
                for i in 0..<devices {
                    let id = String(format: "dev_%016llx%016llx", UInt64(i), salt)
                    let settings = DeviceSettings(locale: "en-US", timeZone: "America/Chicago", topics: ["alerts"],
                                                  cells: cells.isEmpty ? [] : [cells[i % cells.count]])
                    let event = DeviceRegistered(deviceId: id, app: app, platform: "ios", token: String(format: "%048llx%016llx", salt, UInt64(i + 1)),
                                                 bundleId: "com.example.\(app)", environment: "production", settings: settings, personId: nil)
                    pending.append(Task { _ = try await log.append(event) })
                    if pending.count == 512 { for task in pending { try await task.value }; pending.removeAll() }
                }
                for task in pending { try await task.value }
            }
            print(#"{"devices": \#(devices), "cells": \#(cells.count)}"#)
        }
    }

    /// Approves an OPL action with a picket site at `site` and prints the id of the proximity push it leads to.
    struct ProximityApprove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "proximity-approve")
        @Option var site = "47.6062,-122.3321"
        @Option var radius = 3000
        @OptionGroup var common: CommonOptions

        func run() async throws {
            let parts = site.split(separator: ",").compactMap { Double($0) }
            guard parts.count == 2 else { throw ValidationError("--site is lat,lng") }
            let id = String(format: "act_%016llx", UInt64.random(in: 1 ... .max))
            let employer = EmployerDetails(name: "Acme Logistics", industry: "Logistics", website: "https://acme.example.com")
            let details = ActionDetails(organization: "Teamsters Local 117", actionType: "strike", location: "Seattle, WA",
                                        startDate: Timestamp.string(Date()), durationDays: 30, description: "Bench strike",
                                        coordinates: Coordinates(latitude: parts[0], longitude: parts[1]))
            let sites = [ActionSite(locationId: String(format: "loc_%016llx", UInt64.random(in: 1 ... .max)), type: "picket-site",
                                    name: "Gate 3", latitude: parts[0], longitude: parts[1], notificationRadius: radius)]
            try await common.withLog { log, _, _ in
                _ = try await log.append(ActionSubmitted(actionId: id, employer: employer, action: details, submittedBy: "bench"))
                let approved = try await log.append(ActionApproved(actionId: id, employerId: OPLIDs.employer(named: employer.name),
                                                                   employer: employer, action: details, urls: ["acme.example.com"],
                                                                   locations: sites, moderator: "bench", reason: "bench"))
                print(ProximityAlerts.pushID(approvalID: approved.eventID))
            }
        }
    }
}
