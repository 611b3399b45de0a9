import ArgumentParser
import Foundation
import Slippers
import SlippersSQLite
import SlippersStorage
import TableOutput

extension SlippersCommand {
    /// Prints one cached item.
    struct Get: AsyncReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "get",
            abstract: "Print one cached item, found by list (or item type) and id.",
            discussion: """
                An id of digits only is an integer id; if no item has it, the same text is tried as \
                a string id. An id in double quotes is a string id only: get posts '"1"' finds the \
                string id "1", never the integer 1. With --json, prints {"id", "item", "type", "updated_at"}, the item's \
                JSON exactly as the cache stores it.
                """)

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var account: AccountSelectionOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: "A list's key (its item type is used), or an item type.")
        var listOrType: String

        @Argument(help: "The item's id: 42 (an integer, else the string \"42\"), '\"42\"' (the string only), or u2.")
        var id: String

        func execute() async throws {
            let store = try await database.openStorageForReading()
            let type = try await itemType(in: store)
            let key = ItemKey(commandLineArgument: id)
            var found = try await store.item(type: type ?? listOrType, key: key)
            if found == nil, case .integer = key {
                found = try await store.item(type: type ?? listOrType, key: .string(id))
            }
            guard let found else {
                if type == nil { throw CommandFailure.unknownListOrType(listOrType) }
                throw CommandFailure.itemNotFound(id: key, in: listOrType)
            }
            if output.json {
                let object = JSONOutput.object([
                    "id": try JSONOutput.fragment(found.item.key),
                    "item": found.item.json,
                    "type": try JSONOutput.fragment(found.type),
                    "updated_at": try JSONOutput.fragment(found.updatedAt),
                ])
                print(String(decoding: object, as: UTF8.self))
                return
            }
            print(
                TextTable.fields([
                    ("type", found.type),
                    ("id", found.item.key.commandLineText),
                    ("updated", "\(Formatting.date(found.updatedAt)) (\(Formatting.age(of: found.updatedAt)) ago)"),
                ]))
            print(String(decoding: found.item.json, as: UTF8.self))
        }

        /// The item type the name stands for, or `nil` when it is neither a list nor a known type.
        private func itemType(in store: any CacheStorage) async throws -> String? {
            // A list as `sync` was given it (its URL, query and all) names its items' type.
            let selection = try account.selection(in: store, typed: listOrType)
            // A list several accounts hold is refused here, naming them, never mixed; a type that
            // several lists of one account share is the type their items are filed under.
            do {
                let key = try await store.listKey(naming: listOrType, account: selection)
                if let list = try await store.list(key) { return list.itemType }
            } catch CommandFailure.ambiguousItemType {}
            let types = try await store.itemTypes(named: listOrType).filter {
                selection.admits(ListKey.account(ofItemType: $0).account)
            }
            if types.count > 1 { throw CommandFailure.ambiguousItemType(listOrType, candidates: types) }
            return types.first
        }
    }
}
