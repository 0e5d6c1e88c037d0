import MusterRuntime

/// What the geocode service reads: the gazetteer file (`make gazetteer` builds it) and, for
/// street-level forward geocoding, a Nominatim-compatible search URL (none: offline only).
package struct GeocodeSettings: AppSettings, Equatable {
    package var gazetteerPath = ".data/gazetteer/places.tsv"
    package var upstream: String?

    package init() {}

    package enum Variable: String, CaseIterable, Sendable {
        case gazetteerPath = "MUSTER_GAZETTEER"
        case upstream = "MUSTER_GEOCODE_UPSTREAM"
    }

    package mutating func set(_ variable: Variable, _ value: String) throws {
        switch variable {
        case .gazetteerPath:
            guard !value.isEmpty else { throw ConfigurationError("must name a file") }
            gazetteerPath = value
        case .upstream: upstream = try SettingValue.url(value)
        }
    }
}
