import ArgumentParser
import Foundation
import Slippers
import SlippersKit

extension SyncRequest {
    /// The request the options of `sync` (or `enqueue`) give for the list at `url`.
    ///
    /// A `@FILE` value (`--graphql`, `--variables`, `--post-body`) is read now: the request holds its text.
    init(
        url: String, shape: ListShapeOptions, posted: PostedStyleOptions, options: SyncOptions,
        network: NetworkOptions, origins: OriginOptions, retrying: RetryOptions, concurrent: ConcurrencyOptions,
        incremental: IncrementalOptions = IncrementalOptions()
    ) throws {
        let style = try posted.requestStyle(shape: shape)
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

extension RetryOptions {
    /// The values when none is given.
    static let defaults = (
        retries: SyncRequest.Network.defaultRetries, retryDelay: SyncRequest.Network.defaultRetryDelay,
        retryFor: SyncRequest.Network.defaultRetryFor
    )
}
