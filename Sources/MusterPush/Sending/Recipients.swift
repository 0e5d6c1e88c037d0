package import MusterPlatform

/// The active devices of the push's app that its audience names, in a stable order. Pure.
package enum Recipients {
    package static func resolve(_ request: PushRequested, in state: DevicesProjection.State) -> [DevicesProjection.Device] {
        let audience = request.audience
        var matched: [DevicesProjection.Device]
        if let ids = audience.deviceIds {
            matched = ids.compactMap { state.devices[$0] }
        } else if let people = audience.personIds {
            matched = Set(people).flatMap(state.devices(of:))
        } else {
            let topics = audience.topics.map(Set.init)
            let cells = audience.cells.map(CellSet.init)
            matched = state.devices.values.filter { device in
                if let topics { return device.settings.topics.contains(where: topics.contains) }
                if let cells { return device.settings.cells.contains(where: cells.meets) }
                return audience.everyone == true
            }
        }
        return matched.filter { $0.app == request.app && $0.isActive }.sorted { $0.deviceId < $1.deviceId }
    }

    /// Geohash cells: two cells meet when one contains the other (one is a prefix of the other).
    struct CellSet {
        let cells: Set<String>
        /// Every prefix of every audience cell, the cells themselves included.
        let prefixes: Set<String>

        init(_ cells: [String]) {
            self.cells = Set(cells)
            prefixes = Set(cells.flatMap { cell in (1...max(1, cell.count)).map { String(cell.prefix($0)) } })
        }

        func meets(_ cell: String) -> Bool {
            prefixes.contains(cell) || (1...max(1, cell.count)).contains { cells.contains(String(cell.prefix($0))) }
        }
    }
}
