import Foundation
import GRDB
import Slippers
import SlippersTestSupport
import Testing

@testable import SlippersSQLite

@Suite struct BoundStatementTests {
    let directory: TemporaryDirectory
    let queue: DatabaseQueue

    init() throws {
        directory = try TemporaryDirectory()
        queue = try DatabaseQueue(path: directory.path())
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, key NOT NULL UNIQUE, body, at REAL)")
        }
    }

    @Test func valuesAreBoundAsGRDBWouldStoreThem() throws {
        let rows = try queue.write { db -> [Row] in
            let run = try BoundStatement(
                db.cachedStatement(sql: "INSERT INTO t (key, body, at) VALUES (?, ?, ?), (?, ?, ?), (?, ?, ?)"))
            try run.bind(ItemKey.integer(42), at: 1)
            try run.bind(blob: Data(), at: 2)
            try run.bind(1.5, at: 3)
            try run.bind(ItemKey.string("42"), at: 4)
            try run.bind(blob: Data("{\"a\": 1}".utf8), at: 5)
            try run.bind(Int64.max, at: 6)
            try run.bind(ItemKey.string("a b"), at: 7)
            try run.bind("té\u{0}xt", at: 8)
            try run.bind(-0.25, at: 9)
            try run.run()
            return try Row.fetchAll(
                db, sql: "SELECT key, typeof(key), body, typeof(body), at, hex(body) FROM t ORDER BY id")
        }
        #expect(rows.map { $0[0] as ItemKey } == [.integer(42), .string("42"), .string("a b")])
        #expect(rows.map { $0[1] as String } == ["integer", "text", "text"])
        // An empty blob is a blob, not NULL.
        #expect(rows.map { $0[3] as String } == ["blob", "blob", "text"])
        #expect(rows[0][2] as Data == Data())
        // A text is bound whole, past a NUL.
        #expect(rows[2][5] as String == Data("té\u{0}xt".utf8).map { String(format: "%02X", $0) }.joined())
        #expect(rows.map { $0[4] as Double } == [1.5, Double(Int64.max), -0.25])
    }

    @Test func rowsAreReadAndTheStatementIsLeftForGRDB() throws {
        try queue.write { db in
            try db.execute(sql: "INSERT INTO t (key, body) VALUES (7, x'00ff'), ('seven', 'text'), (2.5, NULL)")
            let sql = "SELECT key, body, id FROM t WHERE id >= ? ORDER BY id"
            var keys: [ItemKey?] = []
            var bodies: [Data] = []
            do {
                let run = try BoundStatement(db.cachedStatement(sql: sql))
                try run.bind(Int64(1), at: 1)
                while try run.step() {
                    keys.append(run.itemKey(at: 0))
                    bodies.append(run.data(at: 1))
                    #expect(run.int64(at: 2) == Int64(keys.count))
                }
            }
            // A key that is neither an integer nor text is no item key.
            #expect(keys == [.integer(7), .string("seven"), nil])
            #expect(bodies == [Data([0, 255]), Data("text".utf8), Data()])
            // The same cached statement, run by GRDB with arguments of its own.
            #expect(try Row.fetchAll(db.cachedStatement(sql: sql), arguments: [2]).map { $0[2] as Int64 } == [2, 3])
        }
    }

    @Test func aFailingStepThrowsSQLitesErrorAndLeavesTheStatementReusable() throws {
        try queue.write { db in
            let sql = "INSERT INTO t (key) VALUES (?)"
            do {
                let run = try BoundStatement(db.cachedStatement(sql: sql))
                try run.bind(Int64(1), at: 1)
                try run.run()
            }
            let error = try #require(
                throws: DatabaseError.self,
                performing: {
                    let run = try BoundStatement(db.cachedStatement(sql: sql))
                    try run.bind(Int64(1), at: 1)
                    try run.run()
                })
            #expect(error.resultCode == .SQLITE_CONSTRAINT)
            #expect(error.message?.contains("UNIQUE") == true)
            #expect(error.sql == sql)
            try db.cachedStatement(sql: sql).execute(arguments: [2])
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t") == 2)
        }
    }
}
