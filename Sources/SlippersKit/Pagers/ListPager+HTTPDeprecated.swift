import Foundation

extension CachedPager where Source == AnyPageSource<RawItem> {
    /// A pager of an HTTP list paged with a known style, with each setting apart.
    @available(
        *, deprecated, message: "Pass the settings as a PagerConfiguration: init(http:store:itemType:configuration:)"
    )
    public init(
        http source: HTTPPageSource,
        store: CacheStore,
        itemType: String? = nil,
        policy: CachePolicy = .cacheThenNetwork,
        initialWindow: Int = 1,
        partition: String? = nil,
        keepsNoStorePages: Bool = false
    ) throws {
        try self.init(
            http: source, store: store, itemType: itemType,
            configuration: PagerConfiguration(
                policy: policy, initialWindow: initialWindow, partition: partition,
                keepsNoStorePages: keepsNoStorePages))
    }

    /// A pager of the HTTP list at `url`, paged with `style`, with each setting apart.
    @available(
        *, deprecated, message: "Pass the settings as an HTTPListConfiguration: init(url:style:store:configuration:)"
    )
    public init(
        url: URL,
        style: PaginationStyle,
        client: HTTPClient? = nil,
        headers: [String: String] = [:],
        stub: PageStub? = nil,
        store: CacheStore,
        itemType: String? = nil,
        policy: CachePolicy = .cacheThenNetwork,
        partition: String? = nil
    ) throws {
        try self.init(
            url: url, style: style, store: store,
            configuration: .separate(
                client: client, headers: headers, stub: stub, itemType: itemType, policy: policy, partition: partition))
    }

    /// A pager of the HTTP list at `url`, its style stored or detected, with each setting apart.
    @available(
        *, deprecated, message: "Pass the settings as an HTTPListConfiguration: detecting(url:store:configuration:)"
    )
    public static func detecting(
        url: URL,
        client: HTTPClient? = nil,
        headers: [String: String] = [:],
        stub: PageStub? = nil,
        store: CacheStore,
        itemType: String? = nil,
        policy: CachePolicy = .cacheThenNetwork,
        initialWindow: Int = 1,
        partition: String? = nil,
        keepsNoStorePages: Bool = false
    ) async throws -> ListPager<Item> {
        try await detecting(
            url: url, store: store,
            configuration: .separate(
                client: client, headers: headers, stub: stub, itemType: itemType, policy: policy, partition: partition,
                initialWindow: initialWindow, keepsNoStorePages: keepsNoStorePages))
    }
}

extension PagedList {
    /// A list of the HTTP API at `url`, cached in `store`, with each setting apart.
    @available(
        *, deprecated,
        message: "Pass the settings as an HTTPListConfiguration: init(url:style:in:configuration:distanceFromEnd:)"
    )
    public convenience init(
        url: URL,
        style: PaginationStyle? = nil,
        client: HTTPClient? = nil,
        headers: [String: String] = [:],
        stub: PageStub? = nil,
        in store: CacheStore,
        itemType: String? = nil,
        policy: CachePolicy = .cacheThenNetwork,
        partition: String? = nil,
        distanceFromEnd: Int = 5
    ) {
        self.init(
            url: url, style: style, in: store,
            configuration: .separate(
                client: client, headers: headers, stub: stub, itemType: itemType, policy: policy, partition: partition),
            distanceFromEnd: distanceFromEnd)
    }

    /// A list of the HTTP API at `url` (text), cached in `store`, with each setting apart.
    @available(
        *, deprecated,
        message: "Pass the settings as an HTTPListConfiguration: init(url:style:in:configuration:distanceFromEnd:)"
    )
    public convenience init(
        url: String,
        style: PaginationStyle? = nil,
        client: HTTPClient? = nil,
        headers: [String: String] = [:],
        stub: PageStub? = nil,
        in store: CacheStore,
        itemType: String? = nil,
        policy: CachePolicy = .cacheThenNetwork,
        partition: String? = nil,
        distanceFromEnd: Int = 5
    ) {
        self.init(
            url: url, style: style, in: store,
            configuration: .separate(
                client: client, headers: headers, stub: stub, itemType: itemType, policy: policy, partition: partition),
            distanceFromEnd: distanceFromEnd)
    }
}

extension HTTPListConfiguration {
    /// The configuration the deprecated initialisers' separate settings stand for.
    fileprivate static func separate(
        client: HTTPClient?, headers: [String: String], stub: PageStub?, itemType: String?, policy: CachePolicy,
        partition: String?, initialWindow: Int = 1, keepsNoStorePages: Bool = false
    ) -> HTTPListConfiguration {
        HTTPListConfiguration(
            client: client, headers: headers, stub: stub, itemType: itemType,
            pager: PagerConfiguration(
                policy: policy, initialWindow: initialWindow, partition: partition,
                keepsNoStorePages: keepsNoStorePages))
    }
}
