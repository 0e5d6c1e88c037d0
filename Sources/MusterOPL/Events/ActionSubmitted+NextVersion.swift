#if MUSTER_NEXT_VERSION
package import MusterEvents

// The rolling-upgrade drill's "next version" of Muster (scripts/compose-test.sh builds it with
// MUSTER_NEXT_VERSION=1, which Package.swift turns into this condition for MusterOPL alone, and
// rolls ingest and query over to it under load): what a
// release that moves an event type to a new major looks like. `opl.action.submitted.v2` adds
// `language`; this version writes v2 and reads v1 through the upcaster below, while the version
// before it still runs and reads v2 forward as v1 (EventCatalog.decode). schemas/ holds what this
// repository's build registers, so v2 has no schema file there: without its digest, every read
// of a v2 event runs its Swift rules, as for any event validated under another schema.

/// `opl.action.submitted.v1`, as the next version reads it: the shape before `language`.
package struct ActionSubmittedV1: EventPayload {
    package static let eventType = EventType(app: "opl", aggregate: "action", event: "submitted", major: 1)
    package var actionId: String
    package var employer: EmployerDetails
    package var action: ActionDetails
    package var submittedBy: String
    package var channel: String

    package var aggregateID: String { actionId }

    package func validate() throws {
        try ActionSubmitted(upcasting: self).validate()
    }
}

extension ActionSubmitted {
    /// v1 never said which language a report is in.
    package init(upcasting old: ActionSubmittedV1) {
        self.init(actionId: old.actionId, employer: old.employer, action: old.action, submittedBy: old.submittedBy, channel: old.channel)
        language = "und"
    }
}
#endif
