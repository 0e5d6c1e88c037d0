import MusterRuntime

/// Where an alert goes and in which shape, from one `MUSTER_ALERT_WEBHOOKS` entry:
/// `https://…` (Muster's own JSON), `slack=https://hooks.slack.com/services/…` (a Slack incoming
/// webhook), or `pagerduty=https://events.pagerduty.com/v2/enqueue#<routing key>` (PagerDuty
/// Events v2; the routing key rides in the fragment, which is never sent, and a resolve closes the
/// incident the raise opened).
package struct AlertWebhookTarget: Sendable, Equatable, CustomStringConvertible {
    package enum Format: String, Sendable, Equatable { case json, slack, pagerduty }

    package var format: Format
    package var url: String
    package var routingKey: String?

    package init(format: Format, url: String, routingKey: String? = nil) {
        self.format = format
        self.url = url
        self.routingKey = routingKey
    }

    package static func parse(_ entry: String) throws -> AlertWebhookTarget {
        var format = Format.json
        var rest = Substring(entry)
        if let equals = entry.firstIndex(of: "="), let named = Format(rawValue: String(entry[..<equals])) {
            format = named
            rest = entry[entry.index(after: equals)...]
        }
        guard rest.hasPrefix("http://") || rest.hasPrefix("https://") else {
            throw ConfigurationError("\(entry) is not an http(s) URL, optionally after slack= or pagerduty=")
        }
        var url = String(rest), key: String?
        let shown = format.rawValue + "=" + rest.prefix { $0 != "#" } // never the routing key
        if format == .pagerduty {
            guard let hash = url.firstIndex(of: "#"), url.index(after: hash) < url.endIndex else {
                throw ConfigurationError("\(shown): a PagerDuty target names its routing key after #")
            }
            key = String(url[url.index(after: hash)...])
            url = String(url[..<hash])
            guard let key, (1...64).contains(key.count), key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                throw ConfigurationError("\(shown): a PagerDuty routing key is letters and digits")
            }
        }
        return AlertWebhookTarget(format: format, url: url, routingKey: key)
    }

    /// The URL for logs (a routing key is a secret and never shown).
    package var description: String { format == .json ? url : "\(format.rawValue)=\(url)" }
}
