import Foundation

/// `POST /api/mobile/submit-strike`, as both apps send it.
struct SubmitStrikeRequest: Decodable {
    struct Employer: Decodable {
        var name: String
        var industry: String?
        var website: String?
    }

    struct Point: Decodable {
        var latitude: Double
        var longitude: Double
    }

    struct Action: Decodable {
        var organization: String
        var actionType: String
        var location: String
        /// `2026-02-10T19:23:45Z` (iOS) or `2026-02-10` (Android).
        var startDate: String
        /// iOS defaults to 7, Android to 30; absent means 7. Read as a number so that 7.5 gets a
        /// clear "whole number" answer (Foundation calls it "not valid JSON").
        var durationDays: Double?
        var description: String
        var demands: String?
        var contactInfo: String?
        var learnMoreUrl: String?
        var coordinates: Point?
    }

    var employer: Employer
    var action: Action
}

/// `POST /api/mobile/gps-snapshot`
struct GPSSnapshotRequest: Decodable {
    var actionId: String
    var latitude: Double
    var longitude: Double
    var address: String?
    var notes: String?
}

/// The success answer of both mobile writes; all three keys are required by the apps.
struct SubmittedAnswer: Encodable {
    var success = true
    var message: String
    var id: String
}
