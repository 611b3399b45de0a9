import Foundation
import SlippersNetworking
import Testing

@Suite struct HTTPPageSourceIdentityTests {
    @Test func itemsAreFiledUnderTheLastPathComponentThatIsNotANumberAndTheOrigin() throws {
        #expect(
            HTTPPageSource.defaultItemType(for: try #require(URL(string: "https://x.example/v2/posts?page=2")))
                == "posts@https://x.example")
        #expect(
            HTTPPageSource.defaultItemType(for: try #require(URL(string: "https://x.example/users/42/comments/")))
                == "comments@https://x.example")
        #expect(
            HTTPPageSource.defaultItemType(for: try #require(URL(string: "https://x.example/2024")))
                == "item@https://x.example")
    }

    @Test func twoHostsServingOnePathHaveDifferentItemTypes() throws {
        let a = HTTPPageSource.defaultItemType(for: try #require(URL(string: "http://a.example/ids")))
        let b = HTTPPageSource.defaultItemType(for: try #require(URL(string: "http://b.example/ids")))
        #expect(a != b)
        #expect(a == "ids@http://a.example")
    }

    @Test func theOriginIsSchemeHostAndPortLowercasedAsOriginWritesIt() throws {
        func origin(_ text: String) throws -> String {
            let url = try #require(URL(string: text))
            let source = HTTPPageSource(
                client: APIClient(configuration: try #require(ServerConfiguration(baseURL: url))), url: url,
                style: .linkHeader())
            #expect(source.origin == Origin(url)?.description)
            return source.origin
        }
        #expect(try origin("HTTP://API.Example.com:8080/x") == "http://api.example.com:8080")
        #expect(try origin("https://api.example.com/x") == "https://api.example.com")
        // The scheme's default port, named or not, is one origin, written without it.
        #expect(try origin("https://api.example.com:443/x") == "https://api.example.com")
        #expect(try origin("http://[::1]:9000/x") == "http://[::1]:9000")
        #expect(
            HTTPPageSource.defaultItemType(for: try #require(URL(string: "https://api.example.com:443/posts")))
                == "posts@https://api.example.com")
    }

    @Test func theOriginMatchesTheOriginOfTheListKey() throws {
        let url = try #require(URL(string: "http://127.0.0.1:8123/v1/posts?b=2&a=1&page=3"))
        let source = HTTPPageSource(
            client: APIClient(configuration: try #require(ServerConfiguration(baseURL: url))), url: url,
            style: .pageNumber(firstPage: 1, pageSize: nil))
        #expect(source.listKey.hasPrefix(source.origin + "/"))
        #expect(source.defaultItemType == "posts@" + source.origin)
    }
}
