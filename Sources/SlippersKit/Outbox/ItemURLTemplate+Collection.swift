import Foundation
import Slippers
import SlippersStore

extension ItemURLTemplate {
    /// Where the items of a cached collection are written: `given`, else the template recorded for
    /// the collection (`CacheStore.setItemURLTemplate(_:for:)`), else the default of its list URL
    /// (``init(listURL:)``); `nil` for a list asked for by POST, whose items have no URL of their own.
    ///
    /// - throws: A `StoreError` reading the recorded template.
    public static func forCollection(_ key: String, in store: CacheStore, given: ItemURLTemplate? = nil) throws
        -> ItemURLTemplate?
    {
        if let given { return given }
        if let recorded = try store.itemURLTemplate(for: key).flatMap(ItemURLTemplate.init) { return recorded }
        return URL(string: CollectionKey(parsing: key).list).flatMap(ItemURLTemplate.init(listURL:))
    }
}
