import Foundation

/// US states, DC and territories: postal code ↔ name (GeoNames writes names, ZIP data codes).
package enum USStates {
    package static let byCode: [String: String] = [
        "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California", "CO": "Colorado",
        "CT": "Connecticut", "DE": "Delaware", "DC": "Washington, D.C.", "FL": "Florida", "GA": "Georgia", "HI": "Hawaii",
        "ID": "Idaho", "IL": "Illinois", "IN": "Indiana", "IA": "Iowa", "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana",
        "ME": "Maine", "MD": "Maryland", "MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota", "MS": "Mississippi",
        "MO": "Missouri", "MT": "Montana", "NE": "Nebraska", "NV": "Nevada", "NH": "New Hampshire", "NJ": "New Jersey",
        "NM": "New Mexico", "NY": "New York", "NC": "North Carolina", "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma",
        "OR": "Oregon", "PA": "Pennsylvania", "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota",
        "TN": "Tennessee", "TX": "Texas", "UT": "Utah", "VT": "Vermont", "VA": "Virginia", "WA": "Washington",
        "WV": "West Virginia", "WI": "Wisconsin", "WY": "Wyoming", "PR": "Puerto Rico", "GU": "Guam", "VI": "Virgin Islands",
        "AS": "American Samoa", "MP": "Northern Mariana Islands",
    ]

    /// Lowercased name (and common variants) → code.
    package static let byName: [String: String] = {
        var names: [String: String] = [:]
        for (code, name) in byCode { names[name.lowercased()] = code }
        names["district of columbia"] = "DC"
        names["washington dc"] = "DC"
        names["u.s. virgin islands"] = "VI"
        return names
    }()

    /// `SD`, `sd`, `South Dakota` → `SD`.
    package static func code(_ text: some StringProtocol) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.count == 2, byCode[trimmed.uppercased()] != nil { return trimmed.uppercased() }
        return byName[trimmed.lowercased()]
    }
}
