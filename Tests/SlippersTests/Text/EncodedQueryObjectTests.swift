import Slippers
import Testing

@Suite struct EncodedQueryObjectTests {
    @Test func aRisonObjectIsReadWithItsMembersInOrder() throws {
        let object = try #require(EncodedQueryObject("(page:0,page_size:100,order_column:changed_on_delta_humanized)"))
        #expect(object.notation == .rison)
        #expect(object.members.map(\.name) == ["page", "page_size", "order_column"])
        #expect(object["page"]?.integer == 0)
        #expect(object["page_size"]?.integer == 100)
        #expect(object["order_column"] == .string("changed_on_delta_humanized"))
    }

    @Test func risonValuesOfEveryKindAreRead() throws {
        let object = try #require(
            EncodedQueryObject("(a:!t,b:!f,c:!n,d:!(1,-2.5,3e-2),e:'',f:'it!'s a!!b',g:(h:!()),i:())"))
        #expect(object["a"] == .bool(true))
        #expect(object["b"] == .bool(false))
        #expect(object["c"] == .null)
        #expect(object["d"] == .array([.number("1"), .number("-2.5"), .number("3e-2")]))
        #expect(object["e"] == .string(""))
        #expect(object["f"] == .string("it's a!b"))
        #expect(object["g"] == .object([EncodedQueryObject.Member(name: "h", value: .array([]))]))
        #expect(object["i"] == .object([]))
    }

    @Test func changingOneMemberWritesTheOthersBackAsTheyWere() throws {
        let text = "(filters:!((col:table_name,opr:ct,value:'a b')),order_direction:desc,page:0,page_size:100)"
        var object = try #require(EncodedQueryObject(text))
        #expect(object.text == text)
        object.setInteger(3, for: "page")
        #expect(
            object.text == "(filters:!((col:table_name,opr:ct,value:'a b')),order_direction:desc,page:3,page_size:100)")
        object.setInteger(20, for: "per_page")
        #expect(object.text.hasSuffix(",page_size:100,per_page:20)"))
    }

    @Test func risonQuotesStringsThatAreNotIDs() {
        let object = EncodedQueryObject(
            notation: .rison,
            members: [
                .init(name: "plain", value: .string("abc-1.x_y~z")),
                .init(name: "space", value: .string("a b")),
                .init(name: "number", value: .string("12")),
                .init(name: "dash", value: .string("-x")),
                .init(name: "bang", value: .string("wow!")),
                .init(name: "quote", value: .string("it's")),
                .init(name: "colon", value: .string("a:b")),
                .init(name: "empty", value: .string("")),
                .init(name: "two words", value: .number("1")),
            ])
        #expect(
            object.text
                == "(plain:abc-1.x_y~z,space:'a b',number:'12',dash:'-x',bang:'wow!!',quote:'it!'s',"
                + "colon:'a:b',empty:'','two words':1)")
        #expect(EncodedQueryObject(object.text) == object)
    }

    @Test func malformedRisonIsNoObject() {
        for text in ["(", "(a)", "(a:)", "(a:1", "(a:1,)", "(a:'x)", "(a:'x!y')", "(a:!x)", "(a:1)b", "!(1)", "page"] {
            #expect(EncodedQueryObject(text) == nil, "\(text)")
        }
    }

    @Test func aJSONObjectKeepsItsMembersOrderAndTheirText() throws {
        let text = #"{"per_page": 20, "page": 1, "filter": {"name": "caf\u00e9 \"x\""}, "ids": [1, 2.0], "ok": null}"#
        var object = try #require(EncodedQueryObject(text))
        #expect(object.notation == .json)
        #expect(object.members.map(\.name) == ["per_page", "page", "filter", "ids", "ok"])
        object.setInteger(2, for: "page")
        #expect(object.text == #"{"per_page":20,"page":2,"filter":{"name":"café \"x\""},"ids":[1,2.0],"ok":null}"#)
    }

    @Test func malformedJSONIsNoObject() {
        for text in ["{", #"{"a"}"#, #"{"a":}"#, #"{"a":1,}"#, #"{"a":tru}"#, #"{"a":1} x"#, "[1]", #""a""#] {
            #expect(EncodedQueryObject(text) == nil, "\(text)")
        }
    }

    @Test func deepNestingIsRefusedNotRecursedInto() {
        let deep = String(repeating: "(a:", count: 10_000) + "1" + String(repeating: ")", count: 10_000)
        #expect(EncodedQueryObject(deep) == nil)
        let deepJSON = String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)
        #expect(EncodedQueryObject(deepJSON) == nil)
    }
}
