/// The `# HELP` text of every metric family Muster exports.
///
/// Most metrics are made through swift-metrics (`Counter(label:)`), which carries no help text,
/// and the Prometheus registry refuses a family registered twice with different help. So the
/// text is added to the exposition instead: a family without a `# HELP` line gets its line from
/// this table. A test scrapes a running process and fails on any family missing here.
package enum MetricsHelp {
    package static let text: [String: String] = [
        "muster_http_requests_total": "HTTP requests answered by the router, by method, route pattern and status class (2xx, 3xx, 4xx, 5xx)",
        "muster_http_request_duration_seconds": "Time from a routed request's head to its response, by method and route pattern",
        "muster_http_fast_path_answers_total": "Conditional GETs answered 304 in the channel pipeline, before routing (not in muster_http_requests_total)",
        "muster_http_connections_closed_total": "Connections the server closed itself, by reason: head_timeout, body_timeout, idle_timeout, over_limit",
        "muster_projection_lag": "Events in the log that the projection has not folded yet",
        "muster_projection_checkpoint": "Stream sequence of the last event the projection folded",
        "muster_projection_events_applied_total": "Events folded by the projection",
        "muster_projection_dead_lettered_total": "Events the projection could not fold and sent to the DLQ",
        "muster_nats_connected": "1 while connected to NATS, else 0",
        "muster_nats_reconnects_total": "Times the NATS connection was re-established since the process started",
        "muster_log_unavailable_seconds": "How long the log has been unreachable (writes refused with 503) in the current outage; 0 while it takes writes or is full",
        "muster_process_resident_memory_bytes": "The process's resident memory (VmRSS), read at each scrape",
        "muster_process_open_fds": "File descriptors the process holds open (sockets, files), read at each scrape",
        "muster_process_threads": "Threads of the process, read at each scrape",
        "muster_log_full": "1 while the log's store is full and writes are refused with 503 until space is freed; 0 otherwise",
        "muster_writes_refused_total": "Writes answered 503 because the log did not confirm them, by reason: timeout, disconnected, no_responders, closed, queue_full, jetstream_unavailable, log_full, other",
        "muster_signin_failures_total": "Failed sign-ins, by method: password (wrong password or unknown account), phone (wrong code), apple, google (a token that did not verify)",
        "muster_push_outcomes_total": "Pushes a provider answered, by provider (apns, fcm, none), outcome (delivered, failed) and the provider's reason",
        "muster_notifications_total": "Notification decisions, by app, category, channel (push, email, sms) and outcome (sent, suppressed, deferred)",
        "muster_notification_failures_total": "Notification mails and texts the provider refused three times after their decision, by app and channel",
        "muster_notification_delivery_seconds": "From the event a notification tells of to the push provider's acceptance, by app and provider",
        "muster_process_restarts_total": "Times a muster process started again on this data folder (starts after the first)",
        "muster_process_start_time_seconds": "When this process started, in seconds since 1970",
    ]

    /// Adds `# HELP` before every `# TYPE` line whose family has none.
    package static func annotate(_ exposition: [UInt8]) -> String {
        let text = String(decoding: exposition, as: UTF8.self)
        var out = ""
        out.reserveCapacity(text.utf8.count + 2048)
        var helped = Set<Substring>()
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# HELP ") {
                helped.insert(line.dropFirst(7).prefix { $0 != " " })
            } else if line.hasPrefix("# TYPE ") {
                let family = line.dropFirst(7).prefix { $0 != " " }
                if !helped.contains(family), let help = Self.text[String(family)] {
                    out += "# HELP \(family) \(help)\n"
                }
            }
            out += line
            out += "\n"
        }
        if out.hasSuffix("\n\n") { out.removeLast() }
        return out
    }
}
