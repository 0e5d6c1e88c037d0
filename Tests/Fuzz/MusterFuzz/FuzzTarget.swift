import Foundation

/// Every parser of outside bytes, as a libFuzzer target. `MUSTER_FUZZ_TARGET` names the one a
/// run exercises (`make fuzz` runs each with its seed corpus from `Tests/Fuzz/Corpus/<name>`).
/// A target traps (and libFuzzer saves the input) when a parser crashes or breaks a rule it states.
enum FuzzTarget: String, CaseIterable {
    case timestamps, controlCharacters = "control-characters", envelopes, collector, gzip, redaction, query
    case mobileWrites = "mobile-writes", moderationForms = "moderation-forms", natsRequests = "nats-requests", json, accounts, push, voice, pop, field, access, backup

    static let selected: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["MUSTER_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            FileHandle.standardError.write(Data("set MUSTER_FUZZ_TARGET to one of: \(allCases.map(\.rawValue).joined(separator: " "))\n".utf8))
            exit(2)
        }
        return target
    }()

    func run(_ bytes: [UInt8]) {
        switch self {
        case .timestamps: Self.timestamps(bytes)
        case .controlCharacters: Self.controlCharacters(bytes)
        case .envelopes: Self.envelopes(bytes)
        case .collector: Self.collector(bytes)
        case .gzip: Self.gzip(bytes)
        case .redaction: Self.redaction(bytes)
        case .query: Self.query(bytes)
        case .mobileWrites: Self.mobileWrites(bytes)
        case .moderationForms: Self.moderationForms(bytes)
        case .natsRequests: Self.natsRequests(bytes)
        case .json: Self.json(bytes)
        case .accounts: Self.accounts(bytes)
        case .push: Self.push(bytes)
        case .voice: Self.voice(bytes)
        case .pop: Self.pop(bytes)
        case .field: Self.field(bytes)
        case .access: Self.access(bytes)
        case .backup: Self.backup(bytes)
        }
    }

    /// A rule a parser states, checked on every input: breaking it is a finding like a crash.
    static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("rule broken: \(message())") }
    }
}

/// One input, as libFuzzer hands it over (its runtime also looks the name up).
@_cdecl("LLVMFuzzerTestOneInput")
public func musterFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzTarget.selected.run(bytes)
    return 0
}
