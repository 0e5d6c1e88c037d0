/// The answer of `GET /api/mobile/data`, exactly as the apps decode it (contracts/opl-api.md).
package struct MobileData: Codable, Sendable, Equatable {
    package struct Point: Codable, Sendable, Equatable {
        package var lat: Double
        package var lng: Double
    }

    package struct CachedRegion: Codable, Sendable, Equatable {
        package var center: Point
        package var radiusMeters: Int
        package var refreshThresholdMeters: Int
    }

    package struct GeofenceItem: Codable, Sendable, Equatable {
        package var id: String
        package var type: String
        package var actionId: String
        package var employerId: String
        package var employerName: String
        package var actionType: String
        package var coordinates: Point
        package var distance: Int
        package var notificationRadius: Int
        package var organization: String?
        package var location: String?
        package var startDate: String?
        package var endDate: String?
        package var description: String?
        package var demands: String?
        package var moreInfoUrl: String?
        package var locationName: String?
        package var locationType: String?
    }

    package struct EmployerGeofences: Codable, Sendable, Equatable {
        package var employerId: String
        package var employerName: String
        package var geofences: [GeofenceItem]
    }

    package struct Geofences: Codable, Sendable, Equatable {
        package var total: Int
        package var byEmployer: [EmployerGeofences]
        package var all: [GeofenceItem]
    }

    package struct URLEntry: Codable, Sendable, Equatable {
        package var url: String
        package var employer: String
        package var employerId: String
        package var actionType: String
        package var actionId: String
    }

    package struct Blocklist: Codable, Sendable, Equatable {
        package var totalUrls: Int
        package var totalEmployers: Int
        package var urls: [URLEntry]
    }

    package var version = "1"
    package var generatedAt: String
    /// Milliseconds.
    package var suggestedRefreshInterval: Int
    package var cachedRegion: CachedRegion
    package var geofences: Geofences
    package var blocklist: Blocklist
}

/// The answer of `GET /api/mobile/active-strikes`.
package struct ActiveStrikes: Codable, Sendable, Equatable {
    package struct Strike: Codable, Sendable, Equatable {
        package var id: String
        package var actionType: String
        package var employerName: String
        package var employerId: String
        package var organization: String?
        package var location: String?
        package var startDate: String?
        package var endDate: String?
        package var description: String?
    }

    package var success = true
    package var count: Int
    package var generatedAt: String
    package var strikes: [Strike]
}

/// One employer in `GET /api/blocklist.json` (the extension/DNS-filter map).
package struct ExtensionEntry: Codable, Sendable, Equatable {
    package struct ActionDetails: Codable, Sendable, Equatable {
        package var id: String
        package var organization: String
        package var actionType: String
        package var status: String
        package var description: String
        package var demands: String
        package var location: String
        package var startDate: String
        package var contactInfo: String
        package var learnMoreUrl: String
    }

    package var moreInfoUrl: String
    package var matchingUrlRegexes: [String]
    package var startTime: String?
    package var logoUrl: String?
    package var actionDetails: ActionDetails
}
