/// The fixture list: which id is at which position, and what each item says.
///
/// Positions count from the top. The list starts as ids 1…N in order;
/// ``insertAtTop(count:)`` puts new, higher ids above them, newest first, so
/// position 0 is always the newest item. Nothing is stored per item but
/// title overrides, so a list of a million items costs nothing.
struct FixtureCatalog: Sendable {
    /// The number of items the list started with.
    let initialCount: Int
    /// The number of items inserted at the top since.
    private(set) var insertedCount = 0
    /// Titles changed by ``update(id:title:)``.
    private(set) var titles: [Int: String] = [:]
    /// Grows with every change, so that ETags change with the content.
    private(set) var version = 0
    /// Ids removed by ``remove(id:)``.
    private(set) var removedIDs: Set<Int> = []

    init(count: Int) {
        initialCount = max(0, count)
    }

    var count: Int { initialCount + insertedCount - removedIDs.count }

    /// The id of the item at a position, from 0.
    func id(at position: Int) -> Int {
        var base = position
        // Removals are few (tests remove a handful): skip each one at or before the position.
        for removed in removedBasePositions {
            guard removed <= base else { break }
            base += 1
        }
        return base < insertedCount ? initialCount + insertedCount - base : base - insertedCount + 1
    }

    /// The position of an id, or `nil` when no such item exists.
    func position(of id: Int) -> Int? {
        guard let base = basePosition(of: id), !removedIDs.contains(id) else { return nil }
        return base - removedBasePositions.prefix { $0 < base }.count
    }

    /// The position an id would have if nothing had been removed.
    private func basePosition(of id: Int) -> Int? {
        guard id >= 1, id <= initialCount + insertedCount else { return nil }
        return id > initialCount ? initialCount + insertedCount - id : id - 1 + insertedCount
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
            json += FixtureItem.json(id: id, title: titles[id])
        }
        return json + "]"
    }

    mutating func insertAtTop(count: Int) {
        insertedCount += max(0, count)
        version += 1
    }

    mutating func remove(id: Int) -> Bool {
        guard position(of: id) != nil else { return false }
        removedIDs.insert(id)
        version += 1
        return true
    }

    mutating func update(id: Int, title: String) -> Bool {
        guard position(of: id) != nil else { return false }
        titles[id] = title
        version += 1
        return true
    }
}
