import Foundation

extension PageInfo: Encodable {
    private enum CodingKeys: String, CodingKey {
        case index, generation, itemCount, token, nextToken, etag, lastModified, fetchedAt, superseded, verifiedAt
        case unverified, lifetime, noCache, validator, digest, gaps
    }

    /// Encodes the page's row as one object: every key present, `null` when a value is absent,
    /// tokens and validators as their text, ``validatorKind`` as `validator` and ``gapCount`` as `gaps`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(index, forKey: .index)
        try container.encode(generation, forKey: .generation)
        try container.encode(itemCount, forKey: .itemCount)
        try container.encode(token?.rawValue, forKey: .token)
        try container.encode(nextToken?.rawValue, forKey: .nextToken)
        try container.encode(validators.etag, forKey: .etag)
        try container.encode(validators.lastModified, forKey: .lastModified)
        try container.encode(fetchedAt, forKey: .fetchedAt)
        try container.encode(isSuperseded, forKey: .superseded)
        try container.encode(verifiedAt, forKey: .verifiedAt)
        try container.encode(isUnverified, forKey: .unverified)
        try container.encode(lifetime, forKey: .lifetime)
        try container.encode(requiresRevalidation, forKey: .noCache)
        try container.encode(validatorKind.rawValue, forKey: .validator)
        try container.encode(digest, forKey: .digest)
        try container.encode(gapCount, forKey: .gaps)
    }
}
