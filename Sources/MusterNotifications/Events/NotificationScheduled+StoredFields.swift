import MusterEvents
package import MusterJSON

// Reminders scheduled are most of the notifications fold's events (two for every walk booked),
// and every notifier folds each: they are read from and written to the stored form by hand
// (through Codable their nested notice was a third of a rebuild). CodecAgreementTests holds
// them equal to the Codable conformance, and the bytes to Foundation's, on random payloads.

extension NotificationScheduled: StoredFieldsDecodable {
    // Members are read in their stored (sorted) order: each lookup then compares one key.
    package init(storedFields fields: JSONFields) throws {
        let channels = try fields.required(fields.strings("channels"), "channels")
        let dueAt = try fields.required(fields.string("dueAt"), "dueAt")
        let key = try fields.required(fields.string("key"), "key")
        let notice = try Notice(storedFields: fields.required(fields.object("notice"), "notice"))
        self.init(key: key, notice: notice, dueAt: dueAt, channels: channels, reason: try fields.required(fields.string("reason"), "reason"))
    }
}

extension NotificationScheduled: JSONObjectEncodable {
    package func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try object.strings("channels", channels)
        try object.string("dueAt", dueAt)
        try object.string("key", key)
        try object.object("notice") { try notice.encodeMembers(&$0) }
        try object.string("reason", reason)
    }
}

extension Notice {
    init(storedFields fields: JSONFields) throws {
        let (about, app) = (try fields.required(fields.string("about"), "about"), try fields.required(fields.string("app"), "app"))
        let (body, category) = (try fields.required(fields.string("body"), "body"), try fields.required(fields.string("category"), "category"))
        let (deviceId, id, mailSubject) = (try fields.string("deviceId"), try fields.string("id"), try fields.string("mailSubject"))
        let (mailText, personId, screen) = (try fields.string("mailText"), try fields.string("personId"), try fields.string("screen"))
        let (title, urgent) = (try fields.required(fields.string("title"), "title"), try fields.bool("urgent"))
        self.init(app: app, category: category, personId: personId, deviceId: deviceId, about: about, title: title, body: body,
                  screen: screen, id: id, mailSubject: mailSubject, mailText: mailText, urgent: urgent)
    }

    /// In declaration order, as the synthesized conformance writes it (a snapshot's encoder keeps
    /// the order members come in; the stored form's puts them in key order).
    func encodeMembers(_ object: inout JSONObjectWriter) throws {
        try object.string("app", app)
        try object.string("category", category)
        try object.string("personId", personId)
        try object.string("deviceId", deviceId)
        try object.string("about", about)
        try object.string("title", title)
        try object.string("body", body)
        try object.string("screen", screen)
        try object.string("id", id)
        try object.string("mailSubject", mailSubject)
        try object.string("mailText", mailText)
        try object.bool("urgent", urgent)
    }
}
