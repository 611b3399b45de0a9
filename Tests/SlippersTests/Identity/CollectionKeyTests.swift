import Slippers
import Testing

@Suite struct CollectionKeyTests {
    @Test func theTextIsTheListThenTheStyleThenTheAccount() {
        #expect(CollectionKey("GET /posts").description == "GET /posts")
        #expect(
            CollectionKey("https://x.test/posts", styleFingerprint: "5d41402a").description
                == "https://x.test/posts [style 5d41402a]")
        #expect(
            CollectionKey("https://x.test/posts", styleFingerprint: "5d41402a", account: Account("user 7")).description
                == "https://x.test/posts [style 5d41402a] [account: user 7]")
        #expect(CollectionKey("GET /posts", account: Account("u")).description == "GET /posts [account: u]")
        #expect(CollectionKey("GET /posts", account: .anonymous).description == "GET /posts")
    }

    @Test(arguments: [
        CollectionKey("GET /posts"),
        CollectionKey("https://x.test/posts?tag=[a]", styleFingerprint: "0123abcd"),
        CollectionKey("https://x.test/posts", account: Account("a] [style 00000000")),
        CollectionKey("https://x.test/posts", styleFingerprint: "ffffffff", account: .anonymous),
        CollectionKey("https://x.test/posts", account: Account(derivedFrom: "0123456789abcdef0123")),
        CollectionKey("posts [style nothex!]"),
    ])
    func parsingReadsTheTextBack(key: CollectionKey) {
        #expect(CollectionKey(parsing: key.description) == key)
    }

    @Test func textWithoutSuffixesIsTheListsOwnKey() {
        let key = CollectionKey(parsing: "https://x.test/a [b]")
        #expect(key == CollectionKey("https://x.test/a [b]"))
        #expect(CollectionKey(parsing: "").list == "")
    }

    @Test func anAccountGoesIntoTheKeyAndTheItemType() {
        let p = Account("p")
        #expect(CollectionKey("k").forAccount(.anonymous) == CollectionKey("k"))
        #expect(CollectionKey("k").forAccount(p).account == p)
        #expect(CollectionKey.itemType("Post", account: p) == "Post [account: p]")
        #expect(CollectionKey.itemType("Post", account: .anonymous) == "Post")
        #expect(CollectionKey.itemType("Post [account: p]", removingAccount: p) == "Post")
        #expect(CollectionKey.itemType("Post [account: q]", removingAccount: p) == "Post [account: q]")
        #expect(CollectionKey.itemType("Post", removingAccount: .anonymous) == "Post")
        let filed = CollectionKey.account(ofItemType: "Post [account: p]")
        #expect(filed.account == p && filed.itemType == "Post")
        let plain = CollectionKey.account(ofItemType: "posts@https://x.test")
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
