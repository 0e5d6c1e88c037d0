import MusterEvents
package import MusterPlatform

extension People {
    /// `createOrganisation`, asked again while it answers "still being recorded" (`.loading`, an HTTP
    /// 503 with Retry-After), as its callers are told to: beside the whole suite on two cores the
    /// people fold has taken longer than the 10 s an operator's call waits for it.
    @discardableResult
    package func createOrganisationPatiently(slug: String, app: String, name: String) async throws -> PeopleProjection.Org {
        let deadline = ContinuousClock.now + .seconds(90)
        while true {
            do {
                return try await createOrganisation(slug: slug, app: app, name: name)
            } catch let error as AccountError where error.code == .loading && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(200))
            }
        }
    }
}
