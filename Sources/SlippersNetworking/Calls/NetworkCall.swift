import Foundation
import Slippers
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A network call that can be fired again and again, with every response delivered to every subscriber.
///
/// Subscribers are independent `AsyncSequence`s: an activity indicator
/// follows ``activity()``, an error banner follows ``errors()``, a parser
/// follows ``values()``, and each sees every firing that happens while it
/// is subscribed. Change a parameter with ``update(_:)`` and ``fire()`` again.
///
/// For example:
///
/// ```swift
/// let call = NetworkCall(client: client, resource: Resource<[Post]>(json: Endpoint(.get, "posts")))
/// Task { for await posts in call.values() { show(posts) } }
/// Task { for await error in call.errors() { banner(error) } }
/// await call.fire()
/// call.update { $0 = $0.settingQueryItem("page", to: "2") }
/// await call.fire()
/// ```
public final class NetworkCall<Value: Sendable>: Sendable {
    /// What a subscriber of ``events()`` sees of each firing.
    public enum Event: Sendable {
        /// A firing began.
        case started
        /// A firing succeeded with a value.
        case succeeded(Value)
        /// A firing failed.
        case failed(NetworkError)
    }

    private struct State {
        var resource: Resource<Value>
        var subscribers: [Int: Subscriber] = [:]
        var nextSubscriber = 0
        var runningCount = 0
    }

    private struct Subscriber {
        var deliver: @Sendable (Event) -> Void
        var finish: @Sendable () -> Void
    }

    private let client: APIClient
    private let state: Mutex<State>

    /// Creates a call of a resource through a client; nothing is sent until ``fire()``.
    public init(client: APIClient, resource: Resource<Value>) {
        self.client = client
        self.state = Mutex(State(resource: resource))
    }

    /// The endpoint the next firing calls.
    public var endpoint: Endpoint { state.withLock { $0.resource.endpoint } }

    /// Changes the endpoint of the following firings, such as a query parameter.
    public func update(_ change: (inout Endpoint) -> Void) {
        state.withLock { change(&$0.resource.endpoint) }
    }

    /// Sends the request and delivers the outcome to every subscriber; returns it as well.
    ///
    /// Firings may overlap; each delivers its own `started` and outcome.
    /// Cancelling the calling task fails the firing with a
    /// ``NetworkError/Kind/Transport/cancelled`` error.
    @discardableResult
    public func fire() async -> Result<Value, NetworkError> {
        let resource = state.withLock { state in
            state.runningCount += 1
            return state.resource
        }
        broadcast(.started)
        let result: Result<Value, NetworkError>
        do {
            result = .success(try await client.load(resource))
        } catch let error as NetworkError {
            result = .failure(error)
        } catch is CancellationError {
            result = .failure(NetworkError(.transport(.cancelled)))
        } catch {
            result = .failure(NetworkError(.transport(.other(String(describing: error)))))
        }
        state.withLock { $0.runningCount -= 1 }
        switch result {
        case .success(let value): broadcast(.succeeded(value))
        case .failure(let error): broadcast(.failed(error))
        }
        return result
    }

    /// Whether a firing is under way.
    public var isRunning: Bool { state.withLock { $0.runningCount > 0 } }

    /// Every event of the firings from now on: `started`, then `succeeded` or `failed`.
    public func events() -> AsyncStream<Event> {
        subscribe { event, continuation in continuation.yield(event) }
    }

    /// The value of each successful firing from now on.
    public func values() -> AsyncStream<Value> {
        subscribe { event, continuation in
            if case .succeeded(let value) = event { continuation.yield(value) }
        }
    }

    /// The error of each failed firing from now on.
    public func errors() -> AsyncStream<NetworkError> {
        subscribe { event, continuation in
            if case .failed(let error) = event { continuation.yield(error) }
        }
    }

    /// `true` when a firing starts and `false` when it ends, for an activity indicator.
    public func activity() -> AsyncStream<Bool> {
        subscribe { event, continuation in
            if case .started = event { continuation.yield(true) } else { continuation.yield(false) }
        }
    }

    /// Ends every subscriber's sequence.
    public func finish() {
        let subscribers = state.withLock { state in
            defer { state.subscribers = [:] }
            return state.subscribers
        }
        for subscriber in subscribers.values { subscriber.finish() }
    }

    private func subscribe<Element: Sendable>(
        _ deliver: @escaping @Sendable (Event, AsyncStream<Element>.Continuation) -> Void
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .unbounded)
        let id = state.withLock { state in
            let id = state.nextSubscriber
            state.nextSubscriber += 1
            state.subscribers[id] = Subscriber(
                deliver: { event in deliver(event, continuation) },
                finish: { continuation.finish() })
            return id
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    private func broadcast(_ event: Event) {
        let subscribers = state.withLock { Array($0.subscribers.values) }
        for subscriber in subscribers { subscriber.deliver(event) }
    }
}
