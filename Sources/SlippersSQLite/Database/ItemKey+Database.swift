import GRDB
import Slippers

/// An item key is stored as an SQLite integer or text, so `42` and `"42"` stay distinct.
extension ItemKey: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        switch self {
        case .integer(let value): value.databaseValue
        case .string(let value): value.databaseValue
        }
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> ItemKey? {
        switch dbValue.storage {
        case .int64(let value): Int(exactly: value).map(ItemKey.integer)
        case .string(let value): .string(value)
        default: nil
        }
    }
}

/// An id is stored as its key: an SQLite integer or text.
extension ID: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { rawValue.databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> ID? {
        ItemKey.fromDatabaseValue(dbValue).map(ID.init(rawValue:))
    }
}
