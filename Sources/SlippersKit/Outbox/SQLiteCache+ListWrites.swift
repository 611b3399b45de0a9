import Foundation
import Slippers
import SlippersSQLite

extension SQLiteCache {
    /// Applies a change to a cached item of a list and keeps it in the outbox (`PATCH`, `PUT` or `DELETE`), to its own URL: the
    /// one the item gives of itself, else the list's item URL template (`given`, which the list
    /// keeps from then on, else the one stored, else the list's path and the id).
    ///
    /// What `PagedList.update(_:baseVersion:_:)` and `slippers edit` keep in the outbox.
    ///
    /// - parameter kind: ``PendingWrite/Kind/merge``, ``PendingWrite/Kind/replace`` or ``PendingWrite/Kind/delete``.
    /// - parameter json: The merge patch or the whole item; `nil` for a delete.
    /// - parameter baseVersion: The version the change was made against, sent as `If-Match`.
    /// - throws: ``PagedListWriteError/noItemURL(list:)`` when no URL can be derived; a `SQLiteCacheError`.
    @discardableResult
    public func changeLocally(
        _ kind: PendingWrite.Kind, json: Data?, of key: ItemKey, inList list: String, itemType: String,
        itemURL given: ItemURLTemplate? = nil, baseVersion: String? = nil
    ) throws -> PendingWrite {
        let stored = try item(type: itemType, key: key)?.item.json
        guard
            let url = try ItemURLTemplate.writeURL(
                of: key, json: stored, list: list, cache: self, given: given)
        else { throw PagedListWriteError.noItemURL(list: list) }
        return try writeLocally(
            WriteRequest(kind: kind, json: json, url: url, baseVersion: baseVersion), type: itemType, key: key)
    }

    /// Places a new item in a list at `position` and keeps its `POST` to the list's URL for new
    /// items (the list's own, or the template's list URL).
    ///
    /// What `PagedList.insert(_:at:)` and `slippers edit --insert` keep in the outbox.
    ///
    /// - throws: ``PagedListWriteError/noItemURL(list:)`` when no URL can be derived; a
    ///   `SQLiteCacheError`, such as when the id is cached already.
    @discardableResult
    public func insertLocally(
        _ item: RawItem, inList list: String, itemType: String, itemURL given: ItemURLTemplate? = nil,
        at position: InsertPosition = .first
    ) throws -> PendingWrite {
        let url: String
        if let insertURL = ItemURLTemplate.insertURL(forList: list) {
            url = insertURL
        } else if let template = try ItemURLTemplate.forList(list, cache: self, given: given) {
            url = template.creationURL
        } else {
            throw PagedListWriteError.noItemURL(list: list)
        }
        return try insertLocally(
            item, type: itemType, request: WriteRequest(kind: .insert, json: item.json, url: url), into: list,
            at: position)
    }
}
