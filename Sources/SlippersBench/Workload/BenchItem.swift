import Foundation
import Slippers

/// The item of the benchmark: the shape of a typical feed or blog API's item, about 500 bytes of JSON.
///
/// Properties are camelCase and rely on ``JsonProvider``'s snake_case key
/// strategy, as a user of Slippers writes them; the strategy's cost is part of
/// what every baseline pays.
struct BenchItem: Codable, Sendable, Equatable, Identifiable, CacheIdentifiable {
    /// The author of an item, nested as most APIs nest it.
    struct Author: Codable, Sendable, Equatable {
        var id: Slippers.ID<Author>
        var name: String
    }

    var id: Slippers.ID<BenchItem>
    var title: String
    var body: String
    var createdAt: Date
    var score: Int
    var author: Author
    var tags: [String]
}
