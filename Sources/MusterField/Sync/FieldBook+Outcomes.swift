import MusterEvents

extension FieldBook {
    /// Every mutation's outcome by whose it is, kept so a retried batch gets the same answer. A
    /// snapshot holds it as a list of entries, each naming its person, device and mutation.
    struct KeptOutcomes: Codable, Sendable, Equatable {
        private(set) var byKey: [OutcomeKey: KeptOutcome] = [:]

        init() {}

        subscript(key: OutcomeKey) -> KeptOutcome? {
            get { byKey[key] }
            set { byKey[key] = newValue }
        }

        var values: Dictionary<OutcomeKey, KeptOutcome>.Values { byKey.values }

        /// Forgets the outcomes kept since before `oldest` (log time).
        mutating func forget(before oldest: Int64) {
            if byKey.values.contains(where: { $0.at < oldest }) { byKey = byKey.filter { $0.value.at >= oldest } }
        }

        /// One entry of the snapshot's list.
        struct Entry: Codable {
            var person: FieldID
            var device: FieldID
            var mutation: FieldID
            var at: Int64
            var outcome: Outcome
        }

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            byKey.reserveCapacity(container.count ?? 0)
            while !container.isAtEnd {
                let entry = try container.decode(Entry.self)
                byKey[OutcomeKey(mutation: entry.mutation, device: entry.device, person: entry.person)] = KeptOutcome(outcome: entry.outcome, at: entry.at)
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            for (key, kept) in byKey {
                try container.encode(Entry(person: key.person, device: key.device, mutation: key.mutation, at: kept.at, outcome: kept.outcome))
            }
        }
    }
}
