import Foundation

/// The answers as the OPL apps decode them: strict `Codable`, written from contracts/opl-api.md
/// and not from the server's types, so a drift on either side fails here.
enum Client {
    struct Point: Decodable { var lat: Double; var lng: Double }
    struct Region: Decodable { var center: Point; var radiusMeters: Int; var refreshThresholdMeters: Int }
    struct Geofence: Decodable {
        var id, type, actionId, employerId, employerName, actionType: String
        var coordinates: Point
        var distance: Int
        var notificationRadius: Int
        var organization, location, startDate, endDate, description, demands, moreInfoUrl, locationName, locationType: String?
    }
    struct EmployerGroup: Decodable { var employerId, employerName: String; var geofences: [Geofence] }
    struct Geofences: Decodable { var total: Int; var byEmployer: [EmployerGroup]; var all: [Geofence] }
    struct URLEntry: Decodable { var url, employer, employerId, actionType, actionId: String }
    struct Blocklist: Decodable { var totalUrls: Int; var totalEmployers: Int; var urls: [URLEntry] }
    struct MobileData: Decodable {
        var version: String
        var generatedAt: String
        var suggestedRefreshInterval: Int
        var cachedRegion: Region
        var geofences: Geofences
        var blocklist: Blocklist
    }

    struct Strike: Decodable {
        var id, actionType, employerName, employerId: String
        var organization, location, startDate, endDate, description: String?
    }
    struct ActiveStrikes: Decodable { var success: Bool; var count: Int; var generatedAt: String; var strikes: [Strike] }

    struct Submitted: Decodable { var success: Bool; var message: String; var id: String }

    struct GeocodeResult: Decodable { var latitude, longitude: Double; var displayName: String?; var confidence: Double?; var source: String? }
    struct Geocode: Decodable { var success: Bool; var input: String?; var result: GeocodeResult? }
    struct ReverseInput: Decodable { var latitude, longitude: Double }
    struct ReverseResult: Decodable { var address, city, state, zipCode, country, displayName: String? }
    struct Reverse: Decodable { var success: Bool; var input: ReverseInput?; var result: ReverseResult? }

    struct ActionDetails: Decodable {
        var id, organization, actionType, status, description, demands, location, startDate, contactInfo, learnMoreUrl: String
    }
    struct ExtensionEntry: Decodable {
        var moreInfoUrl: String
        var matchingUrlRegexes: [String]
        var startTime: String?
        var logoUrl: String?
        var unionLogoUrl: String?
        var actionDetails: ActionDetails
    }

    static func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T { try JSONDecoder().decode(T.self, from: data) }
}
