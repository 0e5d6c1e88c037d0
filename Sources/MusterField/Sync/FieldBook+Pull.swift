/// Where a device's pulls stand: after log sequence `position`, and while a full resync is being
/// paged, the checkpoint it started at. Written `12345`, or `12345-67890` during a resync; the
/// device sends back what it was given.
package struct PullCursor: Sendable, Equatable, CustomStringConvertible {
    package var position: UInt64
    package var resyncFrom: UInt64?

    package init(position: UInt64, resyncFrom: UInt64? = nil) {
        self.position = position
        self.resyncFrom = resyncFrom
    }

    package init?(_ text: String) {
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard text.utf8.count <= 41, let position = UInt64(parts[0]) else { return nil }
        self.position = position
        if parts.count == 2 {
            guard let from = UInt64(parts[1]) else { return nil }
            resyncFrom = from
        }
    }

    package var description: String { resyncFrom.map { "\(position)-\($0)" } ?? "\(position)" }
}

/// One page of a pull.
package struct PullPage: Sendable, Equatable {
    package var records: [FieldBook.Record]
    package var cursor: PullCursor
    /// More pages follow: pull again with `cursor` at once.
    package var more: Bool
    /// The device must first drop everything it has (a first pull, a device that was away longer
    /// than deletions are remembered, or whose projects changed): the pages that follow are all there is.
    package var full: Bool
}

extension FieldBook {
    package static let maxPage = 1_000

    /// The records `personId` sees that changed after `since`, in log order, about `limit` (a page
    /// ends between two log sequences); deletions included (except in a full resync, which lists
    /// only what is there).
    package func page(personId: String, orgId: String, role: String, since: PullCursor, limit: Int, checkpoint: UInt64) -> PullPage {
        let company = companies[orgId] ?? Company()
        let resetAt = max(company.purgedThrough, company.resets[personId] ?? 0)
        var (from, resync, full) = (since.position, since.resyncFrom, false)
        if since.position == 0 || (since.resyncFrom ?? since.position) < resetAt {
            (from, resync, full) = (0, checkpoint, true)
        }
        var records: [Record] = []
        var index = firstChange(after: from, in: company.changes)
        while index < company.changes.count {
            let change = company.changes[index]
            index += 1
            guard let record = self.records[change.recordId], record.sequence == change.sequence,
                  resync == nil || !record.deleted, sees(record, personId: personId, orgId: orgId, role: role) else { continue }
            records.append(record)
            // A page ends between two sequences: one push changes many records at one sequence.
            if records.count >= limit && index < company.changes.count && company.changes[index].sequence != change.sequence {
                return PullPage(records: records, cursor: PullCursor(position: change.sequence, resyncFrom: resync), more: true, full: full)
            }
        }
        return PullPage(records: records, cursor: PullCursor(position: max(from, checkpoint)), more: false, full: full)
    }

    /// The index of the first change after `sequence` (the order is by sequence).
    private func firstChange(after sequence: UInt64, in changes: [Change]) -> Int {
        var (low, high) = (0, changes.count)
        while low < high {
            let mid = (low + high) / 2
            if changes[mid].sequence <= sequence { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
