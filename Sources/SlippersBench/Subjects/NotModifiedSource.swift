import Slippers

/// A page source whose pages never change: every request is answered `304 Not Modified`.
///
/// The double the pager is measured with when only the cache matters: it
/// counts nothing and waits for nothing, so the figures hold the pager and the cache alone.
struct NotModifiedSource: PageSource {
    func fetch(_ request: PageRequest) async throws -> PageResult<RawItem> {
        .notModified(request.validators ?? PageValidators(etag: "\"unchanged\""))
    }
}
