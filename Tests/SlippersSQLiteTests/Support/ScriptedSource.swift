import Foundation
import Slippers
import Synchronization

/// A page source double: serves `ids` in pages, logs the tokens asked for, and can fail or hold on command.
///
/// Tokens are page numbers from 1; page 1 is asked for with no token.
final class ScriptedSource: PageSource, Sendable {
    /// The items the source serves, decoded: `{"id": 3, "title": "v1 3"}`.
    struct Post: Decodable, Sendable, Equatable {
        let id: ID<Post>
        let title: String
    }

    struct Failure: Error, Equatable, CustomStringConvertible {
        var description: String { "scripted failure" }
    }

    private struct Script {
        var ids: [Int]
        var label = "v1"
        var failuresLeft = 0
        var requests: [PageRequest] = []
        var etag: (Int) -> String? = { "\"p\($0)\"" }
        var repeatToken = false
        var sendsValidators = true
        var caching = PageCaching()
        var isOffline = false
        var titles: [Int: String] = [:]
        var extraJSON = ""
    }

    let pageSize: Int
    private let script: Mutex<Script>
    private let gate = Gate()

    init(ids: [Int], pageSize: Int) {
        self.pageSize = pageSize
        self.script = Mutex(Script(ids: ids))
    }

    /// The requests received so far, in order.
    var requests: [PageRequest] { script.withLock { $0.requests } }
    /// The page numbers asked for so far.
    var pagesAskedFor: [Int] { requests.map { $0.token?.intValue ?? 1 } }

    func setIDs(_ ids: [Int], label: String = "v2") {
        script.withLock {
            $0.ids = ids
            $0.label = label
        }
    }
    func failNext(_ count: Int) { script.withLock { $0.failuresLeft = count } }
    /// Fails every request while offline.
    func setOffline(_ offline: Bool) { script.withLock { $0.isOffline = offline } }
    /// Sends no ETag and answers every request with a `200`, as a server without validators does.
    func sendNoValidators() { script.withLock { $0.sendsValidators = false } }
    /// Attaches these caching headers to every page from now on.
    func setCaching(_ caching: PageCaching) { script.withLock { $0.caching = caching } }
    /// Changes the title of one item, on whatever page it is.
    func edit(_ id: Int, title: String) { script.withLock { $0.titles[id] = title } }
    /// Adds members to every item's JSON from now on, such as `,"body":"b"`.
    func setExtraJSON(_ json: String) { script.withLock { $0.extraJSON = json } }
    func repeatTokens() { script.withLock { $0.repeatToken = true } }
    /// Holds every response until ``release()``.
    func hold() async { await gate.setOpen(false) }
    func release() async { await gate.setOpen(true) }
    /// Waits until a request is held at the gate.
    func waitForHeldRequest() async { await gate.waitForWaiter() }

    func fetch(_ request: PageRequest) async throws -> PageResult<RawItem> {
        let state = script.withLock { script in
            script.requests.append(request)
            return script
        }
        await gate.pass()
        try Task.checkCancellation()
        if state.isOffline { throw Failure() }
        if state.failuresLeft > 0 {
            script.withLock { $0.failuresLeft -= 1 }
            throw Failure()
        }
        let number = request.token?.intValue ?? 1
        let ids = Array(state.ids.page(number, size: pageSize))
        let items = ids.map { item($0, state.titles[$0] ?? "\(state.label) \($0)", extra: state.extraJSON) }
        let body = items.map { String(decoding: $0.json, as: UTF8.self) }.joined(separator: ",")
        // Like a real body's, the ETag covers the list's length too (its total, its next link).
        let etag = state.sendsValidators ? "\"\(number)-\(state.ids.count)-\(body.hashValue)\"" : nil
        if let validators = request.validators, let etag, validators.etag == etag {
            return .notModified(validators)
        }
        let isLast = number >= state.ids.pageCount(size: pageSize)
        let next = state.repeatToken ? request.token ?? PageToken(2) : (isLast ? nil : PageToken(number + 1))
        return .page(
            Page(
                items: items, token: request.token, nextToken: next,
                total: state.ids.count, validators: PageValidators(etag: etag), caching: state.caching))
    }

    private func item(_ id: Int, _ title: String, extra: String) -> RawItem {
        RawItem(key: .integer(id), json: Data(#"{"id":\#(id),"title":"\#(title)"\#(extra)}"#.utf8))
    }
}

/// A gate that tasks pass while it is open and wait at while it is closed.
actor Gate {
    private var isOpen = true
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var watchers: [CheckedContinuation<Void, Never>] = []

    func setOpen(_ open: Bool) {
        isOpen = open
        if open {
            for continuation in waiting { continuation.resume() }
            waiting.removeAll()
        }
    }

    func pass() async {
        guard !isOpen else { return }
        await withCheckedContinuation { continuation in
            waiting.append(continuation)
            for watcher in watchers { watcher.resume() }
            watchers.removeAll()
        }
    }

    func waitForWaiter() async {
        guard waiting.isEmpty else { return }
        await withCheckedContinuation { watchers.append($0) }
    }
}
