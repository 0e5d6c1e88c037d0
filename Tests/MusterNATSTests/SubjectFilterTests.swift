import MusterNATS
import Testing

@Suite("Subject filters matched on the client as the server matches them")
struct SubjectFilterTests {
    @Test(arguments: [
        ("events.analytics.>", "events.analytics.screen.s1.viewed.v1", true),
        ("events.analytics.>", "events.analytics", false),
        ("events.analytics.>", "events.analyticsx.screen", false),
        ("events.analytics.>", "events.crash.c1.recorded.v1", false),
        ("events.*.apikey.>", "events.platform.apikey.k1.issued.v1", true),
        ("events.*.apikey.>", "events.platform.key.k1.issued.v1", false),
        ("events.opl.action.*.submitted.v1", "events.opl.action.a1.submitted.v1", true),
        ("events.opl.action.*.submitted.v1", "events.opl.action.a1.submitted.v2", false),
        ("events.opl.action.*.submitted.v1", "events.opl.action.a1.b.submitted.v1", false),
        ("events.opl.action.*.submitted.v1", "events.opl.action..submitted.v1", false),
        ("a.b", "a.b", true),
        ("a.b", "a.b.c", false),
        ("a.b", "a", false),
        ("a.*", "a.", false),
        ("a.>", "a.b.", true),
        (">", "a", true),
    ])
    func oneFilter(filter: String, subject: String, matches: Bool) {
        #expect(SubjectFilter([filter]).matches(subject) == matches)
    }

    @Test func anyOfSeveralFilters() {
        let filter = SubjectFilter(["events.analytics.>", "events.crash.>"])
        #expect(filter.matches("events.crash.c1.recorded.v1"))
        #expect(filter.matches("events.analytics.funnel.s1.reached.v1"))
        #expect(!filter.matches("events.opl.action.a1.submitted.v1"))
        #expect(!SubjectFilter([]).matches("events.crash.c1.recorded.v1"))
    }
}
