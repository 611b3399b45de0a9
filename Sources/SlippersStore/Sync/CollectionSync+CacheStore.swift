import Slippers
import SlippersStorage

extension CollectionSync {
    /// Creates a sync of `source` into `collection` of the SQLite file `store`.
    public init(store: CacheStore, source: Source, collection: CollectionDescriptor) {
        self.init(storage: store, source: source, collection: collection)
    }
}
