import Foundation
import Slippers
import SlippersNetworking
import Testing

/// What detection proposes from a first response, in the order page 2 is to be asked for: the
/// parameter the URL names, the conventional name, the body's own name, then offsets (for a body
/// that counts its items and names no page).
@Suite struct PaginationStyleCandidateTests {
    private func explain(_ url: String, _ body: String) -> PaginationStyle.Detection {
        PaginationStyle.explain(url: URL(string: url)!, body: Data(body.utf8), headers: [:])
    }

    @Test func aPageNumberTheBodyNamesIsTriedAfterTheConventionalParameter() {
        let detection = explain(
            "https://x.test/items",
            #"{"items": [{"id": 1}, {"id": 2}], "meta": {"current_page": 1, "next_page": 2, "prev_page": null, "#
                + #""total_pages": 50, "total_count": 1234}}"#)
        #expect(detection.style.kind == .pageNumber(parameter: "page", firstPage: 1))
        #expect(detection.style.totalKeyPath == "meta.total_count")
        #expect(detection.alternatives.map(\.kind) == [.pageNumber(parameter: "current_page", firstPage: 1)])
    }

    @Test func aBareArrayThatNothingPagesIsAskedByPageThenByTheConventionalOffsets() {
        let detection = explain("https://x.test/users/", #"[{"id": 1}, {"id": 2}, {"id": 3}]"#)
        #expect(detection.style.kind == .pageNumber(parameter: "page", firstPage: 1))
        #expect(
            detection.alternatives.map(\.kind) == [
                .pageNumber(parameter: "page", firstPage: 0), .offset(parameter: "offset"), .offset(parameter: "skip"),
            ])
        #expect(detection.alternatives.dropFirst().allSatisfy { $0.pageSizeParameter == "limit" && $0.pageSize == 3 })
    }

    @Test func theParameterTheURLNamesComesFirst() {
        let detection = explain(
            "https://x.test/items?current_page=1", #"{"items": [{"id": 1}], "current_page": 1, "total_pages": 3}"#)
        #expect(detection.style.kind == .pageNumber(parameter: "current_page", firstPage: 1))
        #expect(detection.alternatives.isEmpty)
    }

    @Test func anOpaqueStringAtANextMemberIsACursorWhateverItsName() {
        let detection = explain(
            "https://x.test/items",
            #"{"items": [{"id": 1}], "total": 40, "current_page": "YWZ0ZXI6MA==", "#
                + #""current_page_backwards": "YmVmb3JlOjEw", "previous_page": null, "next_page": "YWZ0ZXI6MTA="}"#)
        #expect(detection.style.kind == .cursor(parameter: "cursor", keyPath: "next_page"))
        // Five more ways: the member's own name, then the vocabulary's.
        #expect(detection.alternatives.count == 5)
        #expect(
            detection.alternatives.allSatisfy { alternative in
                if case .cursor(let parameter, "next_page") = alternative.kind { return parameter != "cursor" }
                return false
            })
        #expect(detection.hints.contains("next_page in the body"), "\(detection.hints)")
    }

    @Test func aNumberAtANextMemberIsNoCursor() {
        let detection = explain("https://x.test/items", #"{"items": [{"id": 1}], "next_page": 2, "total": 40}"#)
        #expect(detection.style.kind == .pageNumber(parameter: "page", firstPage: 1))
    }

    @Test func aContinuationObjectIsSentBackWholeAndTheOnlyArrayOfObjectsIsTheItems() {
        let detection = explain(
            "https://x.test/api.php?action=query&list=allpages",
            #"{"batchcomplete": "", "continue": {"xcontinue": "Café&+?_10", "continue": "-||"}, "#
                + #""query": {"pages": [{"pageid": 11, "ns": 0, "title": "A"}, {"pageid": 12, "ns": 0, "title": "B"}]}}"#
        )
        #expect(detection.style.kind == .cursor(parameter: "", keyPath: "continue"))
        #expect(detection.style.itemsKeyPath == "query.pages")
        #expect(detection.style.idField == "pageid")
        #expect(detection.itemCount == 2)
        #expect(!detection.hints.isEmpty)
    }

    @Test func anIdLikeMemberIsTheIdOnlyWhenItsValuesDiffer() {
        let shared = explain(
            "https://x.test/a", #"{"results": [{"owner_id": 1, "uid": "a"}, {"owner_id": 1, "uid": "b"}]}"#)
        #expect(shared.style.idField == "uid")
        let two = explain("https://x.test/a", #"{"results": [{"pk_id": 1, "uid": "a"}, {"pk_id": 2, "uid": "b"}]}"#)
        // Two members named like ids that both differ: neither is taken, and the reasons name both.
        #expect(two.style.idField == "id")
        #expect(two.reasons.contains { $0.contains("pk_id and uid are named like ids") }, "\(two.reasons)")
    }

    @Test func noTotalPathIsProposedThatTheBodyDoesNotHold() {
        let detection = explain("https://x.test/rows?offset=0&limit=2", #"[{"id": 1}, {"id": 2}]"#)
        #expect(detection.style.kind == .offset(parameter: "offset"))
        #expect(detection.style.totalKeyPath == nil)
    }
}
