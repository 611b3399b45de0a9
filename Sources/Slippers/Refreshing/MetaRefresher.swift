import Synchronization

/// A refresher that refreshes a group of members together.
///
/// Members are held weakly: a member may keep a strong reference to the
/// meta refresher without creating a retain cycle, and a member that goes
/// away simply leaves the group. A refresh reaches every member even when
/// some fail; the failures are then thrown together as a ``Failure``.
///
/// Members may be synchronous (``Refreshable``), asynchronous
/// (``AsyncRefreshable``, such as a `Pager` or a list model) or both
/// (such as another `MetaRefresher`): the asynchronous `refresh()` waits for
/// all of them, using each member's asynchronous refresh where it has one.
///
/// For example:
///
/// ```swift
/// let all = MetaRefresher()
/// all.add(postsPager)
/// all.add(commentsPager)
/// try await all.refresh()   // refreshes both
/// ```
public final class MetaRefresher: Refreshable, AsyncRefreshable {
    /// The errors of the members whose refresh failed.
    public struct Failure: Error, CustomStringConvertible {
        /// Each failed member's error, in the order the members were added.
        public var errors: [any Error]

        public var description: String {
            let details = errors.map { String(describing: $0) }.joined(separator: "; ")
            return "\(errors.count) of the refreshes failed: \(details)"
        }
    }

    private enum Member {
        case sync(Weak<any Refreshable>)
        case async(Weak<any AsyncRefreshable>)
        case both(Weak<any Refreshable & AsyncRefreshable>)

        var object: AnyObject? {
            switch self {
            case .sync(let box): box.object
            case .async(let box): box.object
            case .both(let box): box.object
            }
        }
    }

    private let members = Mutex<[Member]>([])

    /// Creates an empty group.
    public init() {}

    /// The number of members still alive.
    public var count: Int {
        members.withLock { list in list.count(where: { $0.object != nil }) }
    }

    /// Adds a member; adding the same object twice has no effect.
    public func add(_ member: any Refreshable) {
        insert(.sync(Weak(member)), identity: member)
    }

    /// Adds a member whose refresh is asynchronous; adding the same object twice has no effect.
    public func add(_ member: any AsyncRefreshable) {
        insert(.async(Weak(member)), identity: member)
    }

    /// Adds a member that refreshes both ways, such as another group: the synchronous
    /// `refresh()` uses its synchronous refresh, the asynchronous one its asynchronous refresh.
    /// Adding the same object twice has no effect.
    public func add(_ member: any Refreshable & AsyncRefreshable) {
        insert(.both(Weak(member)), identity: member)
    }

    /// Removes a member; removing an object that is not a member has no effect.
    public func remove(_ member: AnyObject) {
        members.withLock { list in
            list.removeAll { $0.object == nil || $0.object === member }
        }
    }

    /// Refreshes every synchronous member, and starts the refresh of every asynchronous one.
    ///
    /// The asynchronous members are refreshed in tasks of their own, so this
    /// call returns before they finish and cannot report their failures. From
    /// an asynchronous context, call the asynchronous `refresh()` to wait for
    /// every member and hear of every failure.
    /// - throws: ``Failure`` when one or more synchronous members failed.
    public func refresh() throws {
        var errors: [any Error] = []
        for member in alive() {
            switch member {
            case .sync(let box):
                guard let object = box.object else { continue }
                do { try object.refresh() } catch { errors.append(error) }
            case .both(let box):
                guard let object = box.object else { continue }
                do { try object.refresh() as Void } catch { errors.append(error) }
            case .async(let box):
                guard let object = box.object else { continue }
                Task { try? await object.refresh() }
            }
        }
        if !errors.isEmpty { throw Failure(errors: errors) }
    }

    /// Refreshes every member, the asynchronous ones concurrently.
    ///
    /// - throws: ``Failure`` when one or more members failed.
    public func refresh() async throws {
        let list = alive()
        let errors = await withTaskGroup(of: (Int, (any Error)?).self) { group in
            for (index, member) in list.enumerated() {
                switch member {
                case .sync(let box):
                    guard let object = box.object else { continue }
                    group.addTask { (index, Self.capture { try object.refresh() }) }
                case .async(let box):
                    guard let object = box.object else { continue }
                    group.addTask {
                        do { try await object.refresh() } catch { return (index, error) }
                        return (index, nil)
                    }
                case .both(let box):
                    guard let object = box.object else { continue }
                    group.addTask {
                        do { try await (object as any AsyncRefreshable).refresh() } catch { return (index, error) }
                        return (index, nil)
                    }
                }
            }
            var failures: [(Int, any Error)] = []
            for await (index, error) in group {
                if let error { failures.append((index, error)) }
            }
            return failures.sorted { $0.0 < $1.0 }.map(\.1)
        }
        if !errors.isEmpty { throw Failure(errors: errors) }
    }

    private static func capture(_ body: () throws -> Void) -> (any Error)? {
        do { try body() } catch { return error }
        return nil
    }

    private func insert(_ member: Member, identity: AnyObject) {
        members.withLock { list in
            list.removeAll { $0.object == nil }
            if !list.contains(where: { $0.object === identity }) { list.append(member) }
        }
    }

    private func alive() -> [Member] {
        members.withLock { list in
            list.removeAll { $0.object == nil }
            return list
        }
    }
}

/// A weak reference that can cross concurrency domains.
///
/// Sendable because the referenced object is itself `Sendable` (the
/// ``Refreshable`` protocols require it) and a weak reference is read atomically.
private struct Weak<Object>: @unchecked Sendable {
    private weak var storage: AnyObject?

    init(_ object: Object) {
        storage = object as AnyObject
    }

    var object: Object? { storage as? Object }
}
