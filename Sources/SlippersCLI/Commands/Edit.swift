import ArgumentParser
import Foundation
import Slippers
import SlippersKit
import SlippersSQLite
import SlippersStorage

extension SlippersCommand {
    /// Changes a cached item locally and keeps the write in the outbox for `push`.
    struct Edit: AsyncReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change a cached item now and keep the change in the outbox for the server (sent by push).",
            discussion: """
                The change is in the cache at once: items, get and export show it, in every \
                list that holds the item. It waits in the outbox (slippers outbox) until \
                slippers push sends it. --set is a JSON merge patch (RFC 7386: the members given \
                change, a null removes one), sent as PATCH; --replace sends the whole item with \
                PUT; --delete takes the item out of every list and sends DELETE. The item's URL is \
                the list's URL path followed by the id (and its trailing slash, if it has \
                one), as Django REST framework and Rails route items; give --item-url where that \
                does not fit. --if-match, or the value of --version-field in the item, is sent as \
                If-Match: a 412 or 409 then settles the conflict by push's --conflict rule. \
                --insert makes a new item, with ID as its provisional id (a UUID or a name such as \
                new-1 that no server item has; a negative number goes last, after --): it shows at once at the top of the list (--at last: \
                after its last cached item), is created by a POST to the list's URL, and takes \
                the id of the server's answer when push sends it.
                """)

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var account: AccountSelectionOptions

        @Argument(help: "The list's key (its item type and URL are used).")
        var list: String

        @Argument(help: "The item's id: 42 (an integer, else the string \"42\"), or '\"42\"' (the string only).")
        var id: String

        @Option(name: .customLong("set"), help: ArgumentHelp("A JSON merge patch of the item.", valueName: "json"))
        var patch: String?

        @Option(help: ArgumentHelp("The whole new item, as JSON.", valueName: "json"))
        var replace: String?

        @Flag(help: "Delete the item.")
        var delete = false

        @Option(
            help: ArgumentHelp(
                "A new item, as a JSON object, with ID as its provisional id; created by POST.", valueName: "json"))
        var insert: String?

        @Option(
            help: ArgumentHelp("Where a new item shows until the server has it: first or last.", valueName: "place"))
        var at: InsertPosition = .first

        @Option(
            name: .customLong("item-url"),
            help: ArgumentHelp(
                "The item's URL, with {id} for its id, kept for the list's later edits (default: the "
                    + "list's path, the id, its trailing slash).",
                valueName: "template"))
        var itemURL: String?

        @Option(
            name: .customLong("if-match"), help: ArgumentHelp("The version to send as If-Match.", valueName: "etag"))
        var ifMatch: String?

        @Option(
            name: .customLong("version-field"),
            help: ArgumentHelp("Send this member of the item, as it is now, as If-Match.", valueName: "name"))
        var versionField: String?

        func validate() throws {
            let given = [patch != nil, replace != nil, delete, insert != nil].filter { $0 }.count
            guard given == 1 else {
                throw ValidationError("Give one of --set JSON, --replace JSON, --delete or --insert JSON.")
            }
            if insert != nil, ifMatch != nil || versionField != nil {
                throw ValidationError("A new item has no version to send as If-Match.")
            }
            if ifMatch != nil, versionField != nil {
                throw ValidationError("--if-match and --version-field cannot be used together.")
            }
            if let itemURL, ItemURLTemplate(itemURL) == nil {
                throw ValidationError("--item-url must be an http or https URL with {id} in it.")
            }
        }

        func execute() async throws {
            let key = try await database.existingListKey(naming: list, account: account)
            let store = try database.openForWriting()
            guard let info = try store.list(key) else { throw CacheError.listNotFound(key: key) }
            if let insert { return try insertLocally(insert, into: key, type: info.itemType, store: store) }
            var itemKey = ItemKey(commandLineArgument: id)
            var stored = try store.item(type: info.itemType, key: itemKey)
            if stored == nil, case .integer = itemKey {
                itemKey = .string(id)
                stored = try store.item(type: info.itemType, key: itemKey)
            }
            guard let item = stored else {
                throw CommandFailure.itemNotFound(id: ItemKey(commandLineArgument: id), in: key)
            }
            // The URL the item gives of itself, unless --item-url says otherwise.
            if let itemURL { try store.setItemURLTemplate(itemURL, for: key) }
            do {
                report(
                    try store.changeLocally(
                        delete ? .delete : replace != nil ? .replace : .merge,
                        json: (patch ?? replace).map { Data($0.utf8) }, of: itemKey, inList: key,
                        itemType: info.itemType, itemURL: itemURL.flatMap(ItemURLTemplate.init),
                        baseVersion: try ifMatch ?? version(of: item.item.json)))
            } catch let error as PagedListWriteError where error.code == .noItemURL {
                throw noItemURL(key)
            }
        }

        private func noItemURL(_ key: String) -> ValidationError {
            ValidationError(
                "The items of \(key.shortenedForErrors) have no URL of their own to derive; give --item-url.")
        }

        /// Places a new item in the list and keeps its `POST` in the outbox.
        private func insertLocally(_ text: String, into key: String, type: String, store: SQLiteCache) throws {
            guard var object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
                throw ValidationError("--insert must be a JSON object.")
            }
            let itemKey = ItemKey(commandLineArgument: id)
            if object["id"] == nil {
                switch itemKey {
                case .integer(let value): object["id"] = value
                case .string(let value): object["id"] = value
                }
            }
            let json = try JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            // A template given is the list's from then on.
            if let itemURL { try store.setItemURLTemplate(itemURL, for: key) }
            do {
                report(
                    try store.insertLocally(
                        RawItem(key: itemKey, json: json), inList: key, itemType: type,
                        itemURL: itemURL.flatMap(ItemURLTemplate.init), at: at))
            } catch let error as PagedListWriteError where error.code == .noItemURL {
                throw noItemURL(key)
            }
        }

        private func report(_ write: PendingWrite) {
            print(
                "pending write \(write.id): \(write.method) \(CredentialQuery.masking(write.url)) "
                    + "(in the outbox; slippers push sends it)")
        }

        /// The item's --version-field, as text.
        private func version(of json: Data) throws -> String? {
            guard let versionField else { return nil }
            let object = (try? JSONSerialization.jsonObject(with: json)) as? [String: Any]
            guard let value = object?[versionField], !(value is NSNull) else {
                throw ValidationError("The item has no \(versionField) to send as If-Match.")
            }
            return (value as? String) ?? "\(value)"
        }
    }
}

extension InsertPosition: ExpressibleByArgument {}
