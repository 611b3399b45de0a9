import Foundation
import Slippers

extension SyncRequest {
    /// The request that `slippers sync` arguments stand for, as queues of earlier releases stored
    /// them: `--name value`, `--name=value` and flags, the URL apart.
    ///
    /// The logging flags are the worker's own and left out; a header or a database is never a
    /// request's.
    ///
    /// - throws: ``FleetError/unconvertibleOptions(_:reason:)`` for a word that is not a sync option.
    init(url: String, arguments: [String]) throws {
        self.init(url: url)
        var words = arguments[...]
        while let word = words.popFirst() {
            guard word.hasPrefix("--") else { throw Self.unconvertible(arguments, "\(word) is not an option") }
            var name = String(word.dropFirst(2))
            var inline: String?
            if let equals = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if let flag = Self.flags[name] {
                guard inline == nil else { throw Self.unconvertible(arguments, "--\(name) takes no value") }
                flag(&self)
                continue
            }
            guard let option = Self.options[name] else {
                throw Self.unconvertible(arguments, "--\(name) is not a sync option of a queued list")
            }
            guard let value = inline ?? words.popFirst() else {
                throw Self.unconvertible(arguments, "--\(name) has no value")
            }
            guard option(&self, value) else {
                throw Self.unconvertible(arguments, "--\(name) \(value) is not a value it takes")
            }
        }
    }

    private static func unconvertible(_ arguments: [String], _ reason: String) -> FleetError {
        FleetError.unconvertibleOptions(arguments, reason: reason)
    }

    /// The `--style` words of the arguments queued before requests, by the kinds' case names they stand for.
    private static let styleNames = [
        "page": "pageNumber", "next": "nextURL", "link": "linkHeader", "after": "afterLastItem", "none": "singlePage",
    ]

    /// The flags, each setting its member.
    private static let flags: [String: @Sendable (inout SyncRequest) -> Void] = [
        "refresh": { $0.refresh = true },
        "revalidate": { $0.revalidate = true },
        "keep-no-store": { $0.keepsNoStorePages = true },
        "verbose": { _ in },
    ]

    /// The options that take a value, each setting its member; `false` when the value is not one it takes.
    private static let options: [String: @Sendable (inout SyncRequest, String) -> Bool] = [
        "style": {
            // Queued words name styles as `page`, `next`…: each stands for a kind's case name.
            $0.style.name = styleNames[$1] ?? $1
            return true
        },
        "items-path": {
            $0.style.itemsPath = $1
            return true
        },
        "id-field": {
            $0.style.idField = $1
            return true
        },
        "page-size": { request, value in set(&request.style.pageSize, Int(value)) },
        "page-param": {
            $0.style.pageParameter = $1
            return true
        },
        "page-size-param": {
            $0.style.pageSizeParameter = $1
            return true
        },
        "cursor-param": {
            $0.style.cursorParameter = $1
            return true
        },
        "total-path": {
            $0.style.totalPath = $1
            return true
        },
        "graphql": {
            $0.style.graphQL = $1
            return true
        },
        "connection": {
            $0.style.connection = $1
            return true
        },
        "variables": {
            $0.style.variables = $1
            return true
        },
        "operation-name": {
            $0.style.operationName = $1
            return true
        },
        "offset-variable": {
            $0.style.offsetVariable = $1
            return true
        },
        "page-variable": {
            $0.style.pageVariable = $1
            return true
        },
        "size-variable": {
            $0.style.sizeVariable = $1
            return true
        },
        "post-body": {
            $0.style.postBody = $1
            return true
        },
        "cursor-path": {
            $0.style.cursorPath = $1
            return true
        },
        "next-cursor-path": {
            $0.style.nextCursorPath = $1
            return true
        },
        "next-cursor-from-item": {
            $0.style.nextCursorFromItem = $1
            return true
        },
        "page-size-path": {
            $0.style.pageSizePath = $1
            return true
        },
        "max-pages": { request, value in set(&request.limits.maxPages, Int(value)) },
        "max-items": { request, value in set(&request.limits.maxItems, Int(value)) },
        "stall-limit": { request, value in set(&request.limits.stallLimit, Int(value)) },
        "item-type": {
            $0.itemType = $1
            return true
        },
        "connect-timeout": { request, value in set(&request.network.connectTimeout, Double(value)) },
        "idle-timeout": { request, value in set(&request.network.idleTimeout, Double(value)) },
        "deadline": { request, value in set(&request.network.deadline, Double(value)) },
        "max-body-size": { request, value in set(&request.network.maxBodySize, byteCount(value)) },
        "cacert": {
            $0.network.caCertificates = $1
            return true
        },
        "allow-origin": {
            $0.network.allowedOrigins.append($1)
            return true
        },
        "trust-origin": {
            $0.network.trustedOrigins.append($1)
            return true
        },
        "retries": { request, value in set(&request.network.retries, Int(value)) },
        "retry-delay": { request, value in set(&request.network.retryDelay, Double(value)) },
        "retry-for": { request, value in set(&request.network.retryFor, Double(value)) },
        "concurrency": { request, value in set(&request.network.concurrency, Int(value)) },
    ]

    /// Sets `member` to `value` when there is one.
    private static func set<Value>(_ member: inout Value?, _ value: Value?) -> Bool {
        guard let value else { return false }
        member = value
        return true
    }

    /// A size in bytes, or with a unit (`KB`, `MB`, `GB`, powers of 1024), as `--max-body-size` takes it.
    private static func byteCount(_ text: String) -> Int? {
        let units: [String: Int] = [
            "": 1, "B": 1, "K": 1 << 10, "KB": 1 << 10, "M": 1 << 20, "MB": 1 << 20, "G": 1 << 30, "GB": 1 << 30,
        ]
        let text = text.trimmingCharacters(in: .whitespaces).uppercased()
        let digits = text.prefix { $0.isNumber }
        guard let value = Int(digits), value > 0, let scale = units[String(text.dropFirst(digits.count))],
            value <= Int.max / scale
        else { return nil }
        return value * scale
    }
}
