import PostgresNIO

/// A call of `save_page`, our schema's function that saves a page unless asked to hold one that
/// brings nothing new (migration 0014), as a statement prepared once per connection: each page
/// then costs a bind and an execution, not a parse and a plan of the call.
///
/// The values are the function's arguments, in its order; its one row is read by column name.
struct SavePageStatement: PostgresPreparedStatement {
    typealias Row = PostgresRandomAccessRow

    static let name = "slippers_save_page"

    static let sql = """
        SELECT * FROM save_page(
            $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
        """

    static let bindingDataTypes: [PostgresDataType] = [
        .text, .text, .text, .float8, .int8, .textArray, .byteaArray, .text, .text, .int8, .text, .text, .text,
        .float8, .bool, .float8, .float8, .text, .text, .bool,
    ]

    var key: String
    var itemType: String
    var style: String?
    var now: Double
    var index: Int
    /// The page's item keys, each once, in the page's order.
    var keys: [String]
    /// The JSON each of ``keys`` keeps.
    var jsons: [ByteBuffer]
    var token: String?
    var nextToken: String?
    var total: Int?
    var etag: String?
    var lastModified: String?
    var digest: String
    var lifetime: Double?
    var noCache: Bool
    var staleWhileRevalidate: Double?
    var staleIfError: Double?
    var vary: String?
    var varyKey: String?
    /// Whether a page whose items earlier pages of the generation all list is held, not written.
    var holdsNothingNew: Bool

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: Self.bindingDataTypes.count)
        bindings.append(key)
        bindings.append(itemType)
        bindings.append(style)
        bindings.append(now)
        bindings.append(index)
        bindings.append(keys)
        bindings.append(jsons)
        bindings.append(token)
        bindings.append(nextToken)
        bindings.append(total)
        bindings.append(etag)
        bindings.append(lastModified)
        bindings.append(digest)
        bindings.append(lifetime)
        bindings.append(noCache)
        bindings.append(staleWhileRevalidate)
        bindings.append(staleIfError)
        bindings.append(vary)
        bindings.append(varyKey)
        bindings.append(holdsNothingNew)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> PostgresRandomAccessRow {
        row.makeRandomAccess()
    }
}
