/// The answer of `GET /api/mobile/data`, exactly as the apps decode it (contracts/opl-api.md).
public struct MobileData: Codable, Sendable, Equatable {
    public struct Point: Codable, Sendable, Equatable {
        public var lat: Double
        public var lng: Double
    }

    public struct CachedRegion: Codable, Sendable, Equatable {
        public var center: Point
        public var radiusMeters: Int
        public var refreshThresholdMeters: Int
    }

    public struct GeofenceItem: Codable, Sendable, Equatable {
        public var id: String
        public var type: String
        public var actionId: String
        public var employerId: String
        public var employerName: String
        public var actionType: String
        public var coordinates: Point
        public var distance: Int
        public var notificationRadius: Int
        public var organization: String?
        public var location: String?
        public var startDate: String?
        public var endDate: String?
        public var description: String?
        public var demands: String?
        public var moreInfoUrl: String?
        public var locationName: String?
        public var locationType: String?
    }

    public struct EmployerGeofences: Codable, Sendable, Equatable {
        public var employerId: String
        public var employerName: String
        public var geofences: [GeofenceItem]
    }

    public struct Geofences: Codable, Sendable, Equatable {
        public var total: Int
        public var byEmployer: [EmployerGeofences]
        public var all: [GeofenceItem]
    }

    public struct URLEntry: Codable, Sendable, Equatable {
        public var url: String
        public var employer: String
        public var employerId: String
        public var actionType: String
        public var actionId: String
    }

    public struct Blocklist: Codable, Sendable, Equatable {
        public var totalUrls: Int
        public var totalEmployers: Int
        public var urls: [URLEntry]
    }

    public var version = "1"
    public var generatedAt: String
    /// Milliseconds.
    public var suggestedRefreshInterval: Int
    public var cachedRegion: CachedRegion
    public var geofences: Geofences
    public var blocklist: Blocklist
}

/// The answer of `GET /api/mobile/active-strikes`.
public struct ActiveStrikes: Codable, Sendable, Equatable {
    public struct Strike: Codable, Sendable, Equatable {
        public var id: String
        public var actionType: String
        public var employerName: String
        public var employerId: String
        public var organization: String?
        public var location: String?
        public var startDate: String?
        public var endDate: String?
        public var description: String?
    }

    public var success = true
    public var count: Int
    public var generatedAt: String
    public var strikes: [Strike]
}

/// One employer in `GET /api/blocklist.json` (the extension/DNS-filter map).
public struct ExtensionEntry: Codable, Sendable, Equatable {
    public struct ActionDetails: Codable, Sendable, Equatable {
        public var id: String
        public var organization: String
        public var actionType: String
        public var status: String
        public var description: String
        public var demands: String
        public var location: String
        public var startDate: String
        public var contactInfo: String
        public var learnMoreUrl: String
    }

    public var moreInfoUrl: String
    public var matchingUrlRegexes: [String]
    public var startTime: String?
    public var logoUrl: String?
    public var actionDetails: ActionDetails
}
