import Foundation
import Slippers

extension ListInfo: Encodable {
    private enum CodingKeys: String, CodingKey {
        case key, account, itemType, style, itemCount, pageCount, supersededPageCount, total, endReached, resumeToken
        case nextPageIndex, generation, unverified, incomplete, gaps, createdAt, refreshedAt, invalidatedAt,
            lastFetchedAt
    }

    /// Encodes the list as one object: every key present, `null` when a value is absent,
    /// `account` the name of the ``account`` (`anonymous` for the anonymous account),
    /// the resume token as its text, `unverified` for ``isUnverified``, `incomplete` for ``isIncomplete``
    /// and `gaps` for ``gapCount``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(account.description, forKey: .account)
        try container.encode(itemType, forKey: .itemType)
        try container.encode(style, forKey: .style)
        try container.encode(itemCount, forKey: .itemCount)
        try container.encode(pageCount, forKey: .pageCount)
        try container.encode(supersededPageCount, forKey: .supersededPageCount)
        try container.encode(total, forKey: .total)
        try container.encode(endReached, forKey: .endReached)
        try container.encode(resumeToken?.rawValue, forKey: .resumeToken)
        try container.encode(nextPageIndex, forKey: .nextPageIndex)
        try container.encode(generation, forKey: .generation)
        try container.encode(isUnverified, forKey: .unverified)
        try container.encode(isIncomplete, forKey: .incomplete)
        try container.encode(gapCount, forKey: .gaps)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(refreshedAt, forKey: .refreshedAt)
        try container.encode(invalidatedAt, forKey: .invalidatedAt)
        try container.encode(lastFetchedAt, forKey: .lastFetchedAt)
    }
}
