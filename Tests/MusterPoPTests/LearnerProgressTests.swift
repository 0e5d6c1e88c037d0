import MusterPoP
import MusterTesting
import PropertyBased
import Testing

@Suite("PoP progress merges: any order, any repetition, one state")
struct LearnerProgressTests {
    typealias Change = (device: String, change: ProgressChange)

    static let devices = ["ipad", "iphone", "mac"]

    /// A random change from one of three devices: cards from a small set (so they collide),
    /// bookmark adds with fresh ids, removes of adds made earlier in the list (as a device removes
    /// what it has seen).
    static func changes(_ seeds: [Int]) -> [Change] {
        var made: [Change] = []
        var bookmarkIds: [String] = []
        for (n, seed) in seeds.enumerated() {
            let device = devices[abs(seed) % 3]
            switch abs(seed / 3) % 5 {
            case 0, 1, 2:
                let card = ProgressChange.CardChange(deck: seed % 2 == 0 ? "us-civics" : "sd-civics", questionId: abs(seed / 15) % 4 + 1,
                                                     timesViewed: abs(seed / 60) % 9, lastViewed: seed % 7 == 0 ? nil : Int64(abs(seed / 7) % 1000),
                                                     isMarkedKnown: (seed / 11) % 2 == 0, changedAt: Int64(abs(seed / 13) % 50))
                made.append((device, .card(card)))
            case 3:
                let id = "bm-\(n)"
                bookmarkIds.append(id)
                made.append((device, .bookmarkAdded(.init(bookmarkId: id, documentId: "doc-\(abs(seed) % 3)", sectionId: seed % 2 == 0 ? nil : "s1",
                                                          createdAt: Int64(n)))))
            default:
                let seen = bookmarkIds.filter { _ in seed % 2 == 0 }
                made.append((device, .bookmarksRemoved(.init(bookmarkIds: Array(seen.prefix(2))))))
            }
        }
        return made
    }

    static func merged(_ changes: some Sequence<Change>) -> LearnerProgress {
        var progress = LearnerProgress()
        for (device, change) in changes { progress.apply(change, from: device) }
        return progress
    }

    @Test func randomInterleavingsWithRetriesGiveOneState() async {
        await propertyCheck(count: 200, input: Gen.int(in: -1_000_000...1_000_000).array(of: 1...40), Gen.int(in: 0...1_000_000)) { seeds, shuffle in
            let changes = Self.changes(seeds)
            let expected = Self.merged(changes)
            var generator = SplitMix(seed: UInt64(shuffle))
            // The same changes, shuffled, some sent twice (a retried batch).
            var replayed = changes + changes.filter { _ in Bool.random(using: &generator) }
            replayed.shuffle(using: &generator)
            #expect(Self.merged(replayed) == expected)
        }
    }

    @Test func everyOrderOfSixChangesFromThreeDevicesGivesOneState() {
        let card = { (views: Int, known: Bool, at: Int64) in
            ProgressChange.card(.init(deck: "us-civics", questionId: 7, timesViewed: views, lastViewed: at, isMarkedKnown: known, changedAt: at))
        }
        let changes: [Change] = [
            ("iphone", card(2, true, 30)), ("ipad", card(5, false, 30)), ("mac", card(1, true, 10)),
            ("iphone", .bookmarkAdded(.init(bookmarkId: "x", documentId: "constitution", sectionId: "art2", createdAt: 5))),
            ("ipad", .bookmarksRemoved(.init(bookmarkIds: ["x"]))),
            ("mac", .bookmarkAdded(.init(bookmarkId: "y", documentId: "constitution", sectionId: "art2", createdAt: 6))),
        ]
        let expected = Self.merged(changes)
        var count = 0
        for order in Self.permutations(changes) {
            #expect(Self.merged(order) == expected)
            count += 1
        }
        #expect(count == 720)
        let only = expected.cards[.init(deck: "us-civics", questionId: 7)]
        #expect(only?.timesViewed == 8 && only?.isMarkedKnown == true, "a tie at 30 goes to the larger device id, iphone: \(String(describing: only))")
        #expect(Set(expected.bookmarks.keys) == ["y"])
    }

    @Test func viewsAddUpAcrossDevicesAndALaterWriteOfKnownWins() {
        let card = { (views: Int, known: Bool, at: Int64) in
            ProgressChange.card(.init(deck: "us-civics", questionId: 12, timesViewed: views, lastViewed: at * 10, isMarkedKnown: known, changedAt: at))
        }
        var progress = LearnerProgress()
        progress.apply(card(3, true, 100), from: "iphone")
        progress.apply(card(2, false, 50), from: "ipad") // older: does not undo the iPhone's "known"
        progress.apply(card(1, false, 40), from: "iphone") // a stale retry: neither lowers the count nor wins
        let key = LearnerProgress.CardKey(deck: "us-civics", questionId: 12)
        #expect(progress.cards[key]?.timesViewed == 5)
        #expect(progress.cards[key]?.isMarkedKnown == true)
        #expect(progress.cards[key]?.lastViewed == 1000)
        progress.apply(card(4, false, 200), from: "ipad")
        #expect(progress.cards[key]?.timesViewed == 7)
        #expect(progress.cards[key]?.isMarkedKnown == false, "the latest write wins")
    }

    @Test func aRemoveTakesAwayOnlyTheAddsItHadSeen() {
        var progress = LearnerProgress()
        progress.apply(.bookmarkAdded(.init(bookmarkId: "a", documentId: "constitution", sectionId: "art1", createdAt: 1)), from: "iphone")
        // The iPad, offline, bookmarks the same section again (a new add) while the iPhone removes the one it saw.
        progress.apply(.bookmarksRemoved(.init(bookmarkIds: ["a"])), from: "iphone")
        progress.apply(.bookmarkAdded(.init(bookmarkId: "b", documentId: "constitution", sectionId: "art1", createdAt: 2)), from: "ipad")
        #expect(Set(progress.bookmarks.keys) == ["b"])
        // A remove that arrives before its add still wins over that add.
        progress.apply(.bookmarksRemoved(.init(bookmarkIds: ["c"])), from: "mac")
        progress.apply(.bookmarkAdded(.init(bookmarkId: "c", documentId: "bill-of-rights", sectionId: nil, createdAt: 3)), from: "mac")
        #expect(Set(progress.bookmarks.keys) == ["b"])
    }

    static func permutations<T>(_ items: [T]) -> [[T]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { i in
            var rest = items
            let first = rest.remove(at: i)
            return permutations(rest).map { [first] + $0 }
        }
    }
}
