/// The fixture list: which id is at which position, and what each item says.
///
/// Positions count from the top. The list starts as ids 1…N in order;
/// ``insertAtTop(count:)`` puts new, higher ids above them, newest first, so
/// position 0 is then the newest item; ``append(count:)`` puts new, higher ids
/// below them, oldest first. Nothing is stored per item but title overrides and
/// where added items went, so a list of a million items costs nothing.
struct FixtureCatalog: Sendable {
    /// The number of items the list started with.
    let initialCount: Int
    /// The items added since, by the order they were added in (the k-th has id `initialCount + k`): at the top or at the end.
    private var added: [Bool] = []
    /// The ordinals (from 0) of the items added at the top, in the order they were added.
    private var topOrdinals: [Int] = []
    /// The ordinals (from 0) of the items added at the end, in the order they were added.
    private var endOrdinals: [Int] = []
    /// The index of each added item's ordinal in ``topOrdinals`` or ``endOrdinals``.
    private var placeOfOrdinal: [Int] = []
    /// Titles changed by ``update(id:title:)``.
    private(set) var titles: [Int: String] = [:]
    /// Authors' ids given by ``setAuthor(id:authorID:)``, in place of the generated ones.
    private(set) var authors: [Int: Int] = [:]
    /// Grows with every change, so that ETags change with the content.
    private(set) var version = 0
    /// Ids removed by ``remove(id:)``.
    private(set) var removedIDs: Set<Int> = []

    init(count: Int) {
        initialCount = max(0, count)
    }

    var count: Int { initialCount + added.count - removedIDs.count }

    /// The id of the item at a position, from 0.
    func id(at position: Int) -> Int {
        var base = position
        // Removals are few (tests remove a handful): skip each one at or before the position.
        for removed in removedBasePositions {
            guard removed <= base else { break }
            base += 1
        }
        let top = topOrdinals.count
        if base < top { return initialCount + 1 + topOrdinals[top - 1 - base] }
        if base < top + initialCount { return base - top + 1 }
        let end = base - top - initialCount
        return end < endOrdinals.count ? initialCount + 1 + endOrdinals[end] : initialCount + added.count + 1 + end
    }

    /// The position of an id, or `nil` when no such item exists.
    func position(of id: Int) -> Int? {
        guard let base = basePosition(of: id), !removedIDs.contains(id) else { return nil }
        return base - removedBasePositions.prefix { $0 < base }.count
    }

    /// The position an id would have if nothing had been removed.
    private func basePosition(of id: Int) -> Int? {
        guard id >= 1, id <= initialCount + added.count else { return nil }
        let top = topOrdinals.count
        guard id > initialCount else { return id - 1 + top }
        let ordinal = id - initialCount - 1
        let place = placeOfOrdinal[ordinal]
        return added[ordinal] ? top - 1 - place : top + initialCount + place
    }

    private var removedBasePositions: [Int] {
        removedIDs.compactMap(basePosition(of:)).sorted()
    }

    /// The JSON of the items at some positions, as an array.
    func json(positions: Range<Int>) -> String {
        let clamped = positions.clamped(to: 0..<count)
        var json = "["
        for position in clamped {
            if position > clamped.lowerBound { json += "," }
            let id = id(at: position)
            json += itemJSON(id: id)
        }
        return json + "]"
    }

    mutating func insertAtTop(count: Int) {
        for _ in 0..<max(0, count) {
            placeOfOrdinal.append(topOrdinals.count)
            topOrdinals.append(added.count)
            added.append(true)
        }
        version += 1
    }

    /// Adds `count` new items at the end of the list, below every other, oldest first.
    mutating func append(count: Int) {
        for _ in 0..<max(0, count) {
            placeOfOrdinal.append(endOrdinals.count)
            endOrdinals.append(added.count)
            added.append(false)
        }
        version += 1
    }

    mutating func remove(id: Int) -> Bool {
        guard position(of: id) != nil else { return false }
        removedIDs.insert(id)
        version += 1
        return true
    }

    /// Gives an item another author, as a create that names one does.
    mutating func setAuthor(id: Int, authorID: Int) {
        authors[id] = authorID
        version += 1
    }

    mutating func update(id: Int, title: String) -> Bool {
        guard position(of: id) != nil else { return false }
        titles[id] = title
        version += 1
        return true
    }
}
