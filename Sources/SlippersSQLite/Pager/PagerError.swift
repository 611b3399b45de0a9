import Foundation
import Slippers

/// Why a pager shows no more rows although its list has not ended: a page whose items do not
/// decode as the app's type, or no way to ask for the next page now (offline, cache only).
///
/// The pager records it in ``Pager/State/refresh`` or ``Pager/State/append``, so that a list
/// whose last row is shown always loads more, shows its end, or shows one of these. Its
/// ``description`` is one line that names what to do. Compare codes with `==`:
///
/// ```swift
/// if let error = list.appendError as? PagerError, error.code == .itemsDoNotDecode {
///     print(error)   // item 0 of page 1 does not decode as Status: `id` is …
/// }
/// ```
public struct PagerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong: one of the static members, compared with `==`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: String, Hashable, Sendable {
            case itemsDoNotDecode, offline, notCached, cannotOpenAtItem
        }

        fileprivate let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// The items of a page do not decode as the pager's type: its model does not match the server's JSON.
        public static let itemsDoNotDecode = Code(.itemsDoNotDecode)
        /// The next page is not cached and the network may not be asked before ``PagerError/retryAt``
        /// (the last request failed), unless ``Pager/retry()`` is called.
        public static let offline = Code(.offline)
        /// The next page is not cached and the pager's policy is ``CachePolicy/cacheOnly``.
        public static let notCached = Code(.notCached)
        /// The list was asked to open at an item it could not reach (``PagerError/item``): it opened at its head.
        public static let cannotOpenAtItem = Code(.cannotOpenAtItem)

        /// The code's name, as in `itemsDoNotDecode`.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// The index of the page concerned, from 0.
    package let pageIndex: Int
    /// For ``Code/itemsDoNotDecode``: the index of the first item that does not decode, on its page.
    package let itemIndex: Int?
    /// For ``Code/itemsDoNotDecode``: the member that does not decode, as a Swift key path (`account.createdAt`).
    public let member: String?
    /// For ``Code/itemsDoNotDecode``: what is wrong with the member and how to fix the model.
    package let reason: String?
    /// For ``Code/offline``: when the pager asks the network again by itself.
    public let retryAt: Date?
    /// The name of the pager's item type.
    let itemType: String
    /// For ``Code/cannotOpenAtItem``: the item the list was asked to open at.
    public let item: ItemKey?

    /// An error of `code` about the page at `pageIndex`.
    init(
        _ code: Code, pageIndex: Int, itemType: String, itemIndex: Int? = nil, member: String? = nil,
        reason: String? = nil, retryAt: Date? = nil, item: ItemKey? = nil
    ) {
        self.item = item
        self.code = code
        self.pageIndex = pageIndex
        self.itemType = itemType
        self.itemIndex = itemIndex
        self.member = member
        self.reason = reason
        self.retryAt = retryAt
    }

    /// The error for the item at `itemIndex` of the page at `pageIndex`, which failed to decode with `error`.
    static func itemsDoNotDecode(pageIndex: Int, itemIndex: Int, itemType: String, error: any Error) -> PagerError {
        let (member, reason) = explain(error)
        return PagerError(
            .itemsDoNotDecode, pageIndex: pageIndex, itemType: itemType, itemIndex: itemIndex, member: member,
            reason: reason)
    }

    /// The error of a list that could not open at `item`, and opened at its head, for `reason`.
    static func cannotOpen(at item: ItemKey, itemType: String, reason: String) -> PagerError {
        PagerError(.cannotOpenAtItem, pageIndex: 0, itemType: itemType, reason: reason, item: item)
    }

    /// The member a decoding error is about, and what is wrong with it and how to fix the model, in a few words.
    private static func explain(_ error: any Error) -> (member: String?, reason: String) {
        guard let error = error as? DecodingError else { return (nil, "\(error)") }
        func path(_ context: DecodingError.Context, adding key: (any CodingKey)? = nil) -> String? {
            let keys = context.codingPath + (key.map { [$0] } ?? [])
            let names = keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            guard !names.isEmpty else { return nil }
            return names.enumerated().map { index, name in
                index == 0 || name.hasPrefix("[") ? name : ".\(name)"
            }.joined()
        }
        switch error {
        case .typeMismatch(let type, let context):
            let found = context.debugDescription.isEmpty ? "" : " (\(context.debugDescription))"
            return (
                path(context),
                "the server sends another type than \(type)\(found): declare the member with the server's type"
            )
        case .keyNotFound(let key, let context):
            return (path(context, adding: key), "the server does not send it: make it optional or give it a default")
        case .valueNotFound(let type, let context):
            return (path(context), "the server sends null where \(type) was expected: make it optional")
        case .dataCorrupted(let context):
            return (path(context), "\(context.debugDescription): declare a type that reads what the server sends")
        @unknown default:
            return (nil, "\(error)")
        }
    }

    /// One line: the page, the item, the member, and what to do.
    public var description: String {
        switch code.base {
        case .itemsDoNotDecode:
            let item = itemIndex.map { "item \($0) of page \(pageIndex)" } ?? "page \(pageIndex)"
            let member = self.member.map { "`\($0)`: " } ?? ""
            return "\(item) does not decode as \(itemType): \(member)\(reason ?? "its model does not match the JSON")"
        case .offline:
            let when = retryAt.map { " asks again at \(Self.time($0)), or" } ?? ""
            return
                "page \(pageIndex) is not cached and the network failed; the list\(when) asks again on retry()"
        case .notCached:
            return "page \(pageIndex) is not cached, and the list reads the cache only (CachePolicy.cacheOnly)"
        case .cannotOpenAtItem:
            return
                "the list cannot open at \(itemType) \(item.map { "\($0)" } ?? "?"): \(reason ?? "it is not cached"); "
                + "it opened at its head"
        }
    }

    private static func time(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}
