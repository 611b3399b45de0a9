import Foundation
import Slippers
import SlippersStorage

extension SyncPlan {
    /// The source of the list's items changed since `value`: the plan's source with
    /// `parameter=value` in its URL (replacing a value the URL had), or the plan's own source for `nil`.
    ///
    /// The value is percent-encoded whole, `+` of a time zone offset included.
    public func source(since value: String?, parameter: String) -> PrimedPageSource {
        guard let value else { return source }
        var base = source.base
        base.url = Self.url(base.url, setting: parameter, to: value)
        return PrimedPageSource(base: base, firstPage: nil)
    }

    /// An incremental sync of the planned list: its first run walks it with this plan's source,
    /// later runs ask for the items changed since the watermark, with `sinceParameter` in the URL.
    ///
    /// For example, what `slippers sync URL --incremental updated_at --since-param updated_since` does:
    ///
    /// ```swift
    /// let plan = try await SyncPlan.make(storage: cache, client: client, url: url)
    /// let sync = plan.incrementalSync(
    ///     storage: cache, settings: .init(field: "updated_at"), sinceParameter: "updated_since")
    /// let outcome = try await sync.run()
    /// ```
    public func incrementalSync(
        storage: any CacheStorage, settings: IncrementalSync<PrimedPageSource>.Settings, sinceParameter: String
    ) -> IncrementalSync<PrimedPageSource> {
        let plan = self
        var sync = IncrementalSync(storage: storage, list: list, settings: settings) { since in
            plan.source(since: since, parameter: sinceParameter)
        }
        sync.repeatedSecondPage = repeatedSecondPage
        return sync
    }

    /// `url` with the query parameter `name` set to `value` alone.
    static func url(_ url: URL, setting name: String, to value: String) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "+&=;")
        let encoded = (
            name: name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name,
            value: value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
        )
        var items = (components.percentEncodedQueryItems ?? []).filter { $0.name != encoded.name }
        items.append(URLQueryItem(name: encoded.name, value: encoded.value))
        components.percentEncodedQueryItems = items
        return components.url ?? url
    }
}

extension IncrementalSync.Settings {
    /// The settings a queued request gives: its field, its lookback in seconds (the default unless
    /// given; a negative or not finite one is none) and its initial value.
    package init(_ incremental: SyncRequest.Incremental) {
        var lookback = Self.defaultLookback
        if let seconds = incremental.lookback {
            let kept = seconds.isFinite ? min(max(seconds, 0), 1e9) : 0
            lookback = .milliseconds(Int64((kept * 1000).rounded()))
        }
        self.init(field: incremental.field, lookback: lookback, initialValue: incremental.initialValue)
    }
}
