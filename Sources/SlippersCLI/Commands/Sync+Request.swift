import ArgumentParser
import Foundation
import Slippers
import SlippersKit

extension SlippersCommand.Sync {
    /// The sync of a queued list: its request, the worker's database, logging and headers.
    ///
    /// Every option is set from the request; what it does not give takes the command's default.
    init(request: SyncRequest, database: DatabaseOptions, logging: LoggingOptions, headers: [String]) {
        self.init()
        self.database = database
        self.logging = logging
        self.headers = headers
        url = request.url
        account = AccountOptions(name: request.account)
        shape = ListShapeOptions(request.style)
        posted = PostedStyleOptions(request.style)
        options = SyncOptions(request)
        incremental = IncrementalOptions(request.incremental)
        network = NetworkOptions(request.network)
        origins = OriginOptions(request.network)
        retrying = RetryOptions(request.network)
        concurrent = ConcurrencyOptions(request.network)
        // A worker's cache is PostgreSQL, whose walks are not read again from their end.
        noReverseRead = false
    }

    /// Runs the checks of the command and of each of its option groups, as parsing does.
    func validateEveryGroup() throws {
        try network.validate()
        try posted.validate()
        try origins.validate()
        try retrying.validate()
        try concurrent.validate()
        try incremental.validate()
        try validate()
    }
}

extension SyncRequest {
    /// The request the options of `sync` (or `enqueue`) give for the list at `url`.
    ///
    /// A `@FILE` value (`--graphql`, `--variables`, `--post-body`) is read now: the request holds its text.
    init(
        url: String, shape: ListShapeOptions, posted: PostedStyleOptions, options: SyncOptions,
        network: NetworkOptions, origins: OriginOptions, retrying: RetryOptions, concurrent: ConcurrencyOptions,
        incremental: IncrementalOptions = IncrementalOptions()
    ) throws {
        var style = Style()
        style.name = shape.style?.rawValue
        style.itemsPath = shape.itemsPath
        style.idField = shape.idField
        style.pageSize = shape.pageSize
        style.pageParameter = shape.pageParameter
        style.pageSizeParameter = shape.pageSizeParameter
        style.cursorParameter = shape.cursorParameter
        style.totalPath = shape.totalPath
        style.graphQL = try posted.graphQL.map { try PostedStyleOptions.text(of: $0, option: "--graphql") }
        style.connection = posted.connection
        style.variables = try posted.variables.map { try PostedStyleOptions.text(of: $0, option: "--variables") }
        style.operationName = posted.operationName
        style.offsetVariable = posted.offsetVariable
        style.pageVariable = posted.pageVariable
        style.sizeVariable = posted.sizeVariable
        style.postBody = try posted.postBody.map { try PostedStyleOptions.text(of: $0, option: "--post-body") }
        style.cursorPath = posted.cursorPath
        style.nextCursorPath = posted.nextCursorPath
        style.nextCursorFromItem = posted.nextCursorFromItem
        style.pageSizePath = posted.pageSizePath
        let stallLimit = options.stallLimit == SyncOptions.defaultStallLimit ? nil : options.stallLimit
        let concurrency =
            concurrent.concurrency == ConcurrencyOptions.defaultConcurrency ? nil : concurrent.concurrency
        let defaults = RetryOptions.defaults
        self.init(
            url: url, style: style,
            limits: Limits(maxPages: options.maxPages, maxItems: options.maxItems, stallLimit: stallLimit),
            itemType: options.itemType, refresh: options.refresh, revalidate: options.revalidate,
            keepsNoStorePages: options.keepNoStore,
            network: Network(
                connectTimeout: network.connectTimeout, idleTimeout: network.idleTimeout, deadline: network.deadline,
                maxBodySize: network.maxBodySize?.bytes, caCertificates: network.caCertificates,
                allowedOrigins: origins.allowed, trustedOrigins: origins.trusted,
                retries: retrying.retries == defaults.retries ? nil : retrying.retries,
                retryDelay: retrying.retryDelay == defaults.retryDelay ? nil : retrying.retryDelay,
                retryFor: retrying.retryFor == defaults.retryFor ? nil : retrying.retryFor,
                concurrency: concurrency),
            incremental: incremental.request, newestFirst: options.newestFirst ? true : nil)
    }
}

extension ListShapeOptions {
    /// The options a request's style gives.
    init(_ style: SyncRequest.Style) {
        self.init()
        self.style = style.name.flatMap(StyleOption.init(rawValue:))
        itemsPath = style.itemsPath
        idField = style.idField
        pageSize = style.pageSize
        pageParameter = style.pageParameter
        pageSizeParameter = style.pageSizeParameter
        cursorParameter = style.cursorParameter
        totalPath = style.totalPath
    }
}

extension PostedStyleOptions {
    /// The options a request's style gives.
    init(_ style: SyncRequest.Style) {
        self.init()
        graphQL = style.graphQL
        connection = style.connection
        variables = style.variables
        operationName = style.operationName
        offsetVariable = style.offsetVariable
        pageVariable = style.pageVariable
        sizeVariable = style.sizeVariable
        postBody = style.postBody
        cursorPath = style.cursorPath
        nextCursorPath = style.nextCursorPath
        nextCursorFromItem = style.nextCursorFromItem
        pageSizePath = style.pageSizePath
    }
}

extension SyncOptions {
    /// The options a request gives.
    init(_ request: SyncRequest) {
        self.init()
        maxPages = request.limits.maxPages
        maxItems = request.limits.maxItems
        stallLimit = request.limits.stallLimit ?? Self.defaultStallLimit
        refresh = request.refresh
        revalidate = request.revalidate
        newestFirst = request.newestFirst ?? false
        keepNoStore = request.keepsNoStorePages
        itemType = request.itemType
    }
}

extension NetworkOptions {
    /// The options a request's network settings give.
    init(_ network: SyncRequest.Network) {
        self.init()
        connectTimeout = network.connectTimeout
        idleTimeout = network.idleTimeout
        deadline = network.deadline
        maxBodySize = network.maxBodySize.map(ByteSize.init(bytes:))
        caCertificates = network.caCertificates
    }
}

extension OriginOptions {
    /// The options a request's network settings give.
    init(_ network: SyncRequest.Network) {
        self.init()
        allowed = network.allowedOrigins
        trusted = network.trustedOrigins
    }
}

extension RetryOptions {
    /// The options a request's network settings give.
    init(_ network: SyncRequest.Network) {
        self.init()
        retries = network.retries ?? Self.defaults.retries
        retryDelay = network.retryDelay ?? Self.defaults.retryDelay
        retryFor = network.retryFor ?? Self.defaults.retryFor
    }

    /// The values when none is given.
    static let defaults = (
        retries: SyncRequest.Network.defaultRetries, retryDelay: SyncRequest.Network.defaultRetryDelay,
        retryFor: SyncRequest.Network.defaultRetryFor
    )
}

extension ConcurrencyOptions {
    /// The options a request's network settings give.
    init(_ network: SyncRequest.Network) {
        self.init()
        concurrency = network.concurrency ?? Self.defaultConcurrency
    }
}
