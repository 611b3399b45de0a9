import Slippers
import Testing

/// A sync request is checked in the library, with errors that name the member: no I/O.
@Suite struct SyncRequestValidationTests {
    private static func request(_ edit: (inout SyncRequest) -> Void) -> SyncRequest {
        var request = SyncRequest(url: "https://api.example.com/posts")
        edit(&request)
        return request
    }

    static let wrong: [(SyncRequest, String)] = [
        (request { $0.url = "api.example.com/posts" }, "url"),
        (
            request {
                $0.style.graphQL = "{ q }"
                $0.style.postBody = "{}"
            }, "style.postBody"
        ),
        (request { $0.style.pageSize = 0 }, "style.pageSize"),
        (request { $0.style.connection = "posts" }, "style.connection"),
        (
            request {
                $0.style.graphQL = "{ q }"
                $0.style.name = "cursor"
            }, "style.name"
        ),
        (
            request {
                $0.style.graphQL = "{ q }"
                $0.style.cursorPath = "c"
            }, "style.cursorPath"
        ),
        (
            request {
                $0.style.graphQL = "{ q }"
                $0.style.offsetVariable = "o"
                $0.style.pageVariable = "p"
            },
            "style.pageVariable"
        ),
        (request { $0.style.pageSizePath = "size" }, "style.pageSizePath"),
        (
            request {
                $0.style.postBody = "{}"
                $0.style.cursorParameter = "c"
            }, "style.cursorParameter"
        ),
        (
            request {
                $0.style.postBody = "{}"
                $0.style.cursorPath = "c"
                $0.style.pageParameter = "p"
            },
            "style.pageParameter"
        ),
        (
            request {
                $0.style.postBody = "{}"
                $0.style.name = "cursor"
            }, "style.name"
        ),
        (request { $0.style.postBody = "[1]" }, "style.postBody"),
        (request { $0.limits.maxPages = 0 }, "limits.maxPages"),
        (
            request {
                $0.refresh = true
                $0.revalidate = true
            }, "revalidate"
        ),
    ]

    @Test(arguments: wrong)
    func aRequestWhoseMembersContradictEachOtherIsRefusedNamingTheMember(request: SyncRequest, member: String) {
        let error = #expect(throws: SyncRequestError.self) { try request.validate() }
        #expect(error?.member == member, "\(String(describing: error))")
    }

    @Test func aQueuedRequestCarriesNoCredentialAndAGoodOneIsTaken() throws {
        let secret = Self.request { $0.url = "https://api.example.com/posts?api_key=s3cret" }
        try secret.validate()
        let error = #expect(throws: SyncRequestError.self) { try secret.validate(queued: true) }
        #expect(error?.member == "url")
        #expect(error.map { "\($0)".contains("s3cret") } == false)
        let good = Self.request {
            $0.style.postBody = #"{"page": 1}"#
            $0.style.pageParameter = "page"
            $0.style.name = "pageNumber"
        }
        try good.validate(queued: true)
    }
}
