import Slippers
import Testing

@Suite struct ListKeyTests {
    @Test func theTextIsTheListThenTheStyleThenTheAccount() {
        #expect(ListKey("GET /posts").description == "GET /posts")
        #expect(
            ListKey("https://x.test/posts", styleFingerprint: "5d41402a").description
                == "https://x.test/posts [style 5d41402a]")
        #expect(
            ListKey("https://x.test/posts", styleFingerprint: "5d41402a", account: Account("user 7")).description
                == "https://x.test/posts [style 5d41402a] [account: user 7]")
        #expect(ListKey("GET /posts", account: Account("u")).description == "GET /posts [account: u]")
        #expect(ListKey("GET /posts", account: .anonymous).description == "GET /posts")
    }

    @Test(arguments: [
        ListKey("GET /posts"),
        ListKey("https://x.test/posts?tag=[a]", styleFingerprint: "0123abcd"),
        ListKey("https://x.test/posts", account: Account("a] [style 00000000")),
        ListKey("https://x.test/posts", styleFingerprint: "ffffffff", account: .anonymous),
        ListKey("https://x.test/posts", account: Account(derivedFrom: "0123456789abcdef0123")),
        ListKey("posts [style nothex!]"),
    ])
    func parsingReadsTheTextBack(key: ListKey) {
        #expect(ListKey(parsing: key.description) == key)
    }

    @Test func textWithoutSuffixesIsTheListsOwnKey() {
        let key = ListKey(parsing: "https://x.test/a [b]")
        #expect(key == ListKey("https://x.test/a [b]"))
        #expect(ListKey(parsing: "").list == "")
    }

    @Test func anAccountGoesIntoTheKeyAndTheItemType() {
        let p = Account("p")
        #expect(ListKey("k").forAccount(.anonymous) == ListKey("k"))
        #expect(ListKey("k").forAccount(p).account == p)
        #expect(ListKey.itemType("Post", account: p) == "Post [account: p]")
        #expect(ListKey.itemType("Post", account: .anonymous) == "Post")
        #expect(ListKey.itemType("Post [account: p]", removingAccount: p) == "Post")
        #expect(ListKey.itemType("Post [account: q]", removingAccount: p) == "Post [account: q]")
        #expect(ListKey.itemType("Post", removingAccount: .anonymous) == "Post")
        let filed = ListKey.account(ofItemType: "Post [account: p]")
        #expect(filed.account == p && filed.itemType == "Post")
        let plain = ListKey.account(ofItemType: "posts@https://x.test")
        #expect(plain.account == .anonymous && plain.itemType == "posts@https://x.test")
    }

    @Test func anAccountIsDeclaredDerivedOrAnonymous() {
        #expect(Account("anonymous") == .anonymous)
        #expect(Account("").isAnonymous)
        #expect(Account.anonymous.description == "anonymous")
        let derived = Account(derivedFrom: "00112233445566778899aabbccddeeff")
        #expect(derived.name == "~0011223344556677")
        #expect(derived.isDerived)
        #expect(!Account("user-42").isDerived)
    }
}
