import Slippers
import Testing

@Suite struct CollectionKeyTests {
    @Test func theTextIsTheListThenTheStyleThenThePartition() {
        #expect(CollectionKey("GET /posts").description == "GET /posts")
        #expect(
            CollectionKey("https://x.test/posts", styleFingerprint: "5d41402a").description
                == "https://x.test/posts [style 5d41402a]")
        #expect(
            CollectionKey("https://x.test/posts", styleFingerprint: "5d41402a", partition: "user 7").description
                == "https://x.test/posts [style 5d41402a] [partition: user 7]")
        #expect(CollectionKey("GET /posts", partition: "u").description == "GET /posts [partition: u]")
    }

    @Test(arguments: [
        CollectionKey("GET /posts"),
        CollectionKey("https://x.test/posts?tag=[a]", styleFingerprint: "0123abcd"),
        CollectionKey("https://x.test/posts", partition: "a] [style 00000000"),
        CollectionKey("https://x.test/posts", styleFingerprint: "ffffffff", partition: ""),
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

    @Test func aPartitionGoesIntoTheKeyAndTheItemType() {
        #expect(CollectionKey("k").partitioned(nil) == CollectionKey("k"))
        #expect(CollectionKey("k").partitioned("p").partition == "p")
        #expect(CollectionKey.itemType("Post", partition: "p") == "Post [partition: p]")
        #expect(CollectionKey.itemType("Post", partition: nil) == "Post")
        #expect(CollectionKey.itemType("Post [partition: p]", removingPartition: "p") == "Post")
        #expect(CollectionKey.itemType("Post [partition: q]", removingPartition: "p") == "Post [partition: q]")
        #expect(CollectionKey.itemType("Post", removingPartition: nil) == "Post")
    }
}
