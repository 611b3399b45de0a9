import Foundation
import Slippers
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport on Foundation's `URLSession`: the default on Apple platforms.
///
/// The session does not cache responses and keeps no cookies, so that
/// conditional requests and `304` answers are the caller's, not the cache's.
/// It follows no redirect: a `3xx` answer comes back as a response with its
/// `Location` header, for ``APIClient`` to judge. Cancelling the calling
/// task cancels the data task at once and throws `CancellationError`.
///
/// On Linux, prefer ``AsyncHTTPClientTransport`` (the default there): the
/// Linux `URLSession` busy-polls while it waits for a response, has no total
/// deadline and holds whole bodies in memory without a limit.
public final class URLSessionTransport: HTTPTransport {
    /// A transport shared by clients that do not bring their own, with a 60-second timeout.
    public static let shared = URLSessionTransport()

    /// The seconds a request may wait for data before it fails with a timeout.
    let timeout: TimeInterval
    private let session: URLSession

    /// Creates a transport whose requests time out after `timeout` seconds without data.
    ///
    /// Timeouts are at least one second: on Linux, URLSession treats a
    /// timeout under a second as one that has already expired.
    public init(timeout: TimeInterval = 60) {
        let timeout = max(timeout, 1)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        self.timeout = timeout
        self.session = URLSession(
            configuration: configuration, delegate: RedirectRefusingDelegate(), delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends a request through the session.
    ///
    /// - throws: ``NetworkError`` of kind ``NetworkError/Kind/transport(_:)``
    ///   for `URLError`s; `CancellationError` when the task is cancelled.
    public func send(_ request: URLRequest) async throws -> NetworkResponse {
        try Task.checkCancellation()
        let box = DataTaskBox()
        let result: Result<NetworkResponse, any Error> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(returning: .failure(error))
                    } else if let http = response as? HTTPURLResponse {
                        var headers: [String: String] = [:]
                        for (name, value) in http.allHeaderFields {
                            if let name = name as? String, let value = value as? String { headers[name] = value }
                        }
                        continuation.resume(
                            returning: .success(
                                NetworkResponse(
                                    statusCode: http.statusCode, headers: headers, body: data ?? Data(),
                                    url: http.url ?? request.url)))
                    } else {
                        continuation.resume(returning: .failure(URLError(.badServerResponse)))
                    }
                }
                box.start(task)
            }
        } onCancel: {
            box.cancel()
        }
        switch result {
        case .success(let response):
            return response
        case .failure(let error):
            if Task.isCancelled { throw CancellationError() }
            if let urlError = error as? URLError {
                throw NetworkError(urlError: urlError, url: request.url, method: request.httpMethod)
            }
            throw NetworkError(.transport(.other(String(describing: error))), url: request.url)
        }
    }
}

/// Refuses every redirect, so that the `3xx` response itself reaches the caller.
private final class RedirectRefusingDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

/// Holds the data task so that a cancellation arriving from another thread can reach it.
private final class DataTaskBox: Sendable {
    // The task is only touched under the lock; `URLSessionTask` itself is
    // documented as thread-safe for `resume()` and `cancel()`.
    private let state = Mutex<(task: URLSessionDataTask?, isCancelled: Bool)>((nil, false))

    func start(_ task: URLSessionDataTask) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.isCancelled
        }
        task.resume()
        if cancelled { task.cancel() }
    }

    func cancel() {
        let task = state.withLock { state in
            state.isCancelled = true
            return state.task
        }
        task?.cancel()
    }
}
