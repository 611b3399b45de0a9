import Slippers

extension PostgresCache {
    /// How many pages past the committed prefix workers fetch ahead of the lease holder.
    static var pagesFetchedAhead: Int { 64 }

    /// Fetches pages of `list` ahead of the worker holding its lease, for that worker to
    /// commit, until `leaseTaken` says this worker has the lease or nothing is left to fetch.
    ///
    /// Only a list whose pages can be named by index and whose end is known (its first page, once
    /// committed, gave the total) is fetched ahead: no page past its end is asked for. Each page is
    /// claimed before it is fetched, so no two workers fetch the same page; the lease holder takes
    /// the staged pages through ``SharedPageSource`` and commits them in order. A page that fails is
    /// given back for the lease holder to fetch under its retry budget, and the task that fetched
    /// it stops: a failing server gets at most `concurrency` failed requests from a waiting worker.
    /// Up to ``pagesFetchedAhead`` pages past the committed prefix are fetched.
    ///
    /// - parameter list: The list, as the lease holder walks it: pages are fetched ahead only while
    ///   a lease holder walks it with the same fingerprint (see ``SharedList``).
    /// - parameter source: The list's source, as the lease holder's is built.
    /// - parameter concurrency: How many pages this worker fetches at once.
    /// - parameter leaseTaken: Whether this worker now holds the lease.
    /// - returns: The number of pages this worker fetched and staged.
    public func fetchPagesAhead<Source: AddressablePageSource>(
        of list: SharedList, source: Source, concurrency: Int, until leaseTaken: @escaping @Sendable () -> Bool
    ) async -> Int where Source.Item == RawItem {
        guard source.token(forPageAt: 1) != nil else { return 0 }
        return await withTaskGroup(of: Int.self) { group in
            for _ in 0..<max(1, concurrency) {
                group.addTask { [self] in
                    var staged = 0
                    while let page = await nextPageAhead(of: list, source: source, leaseTaken: leaseTaken) {
                        guard await fetchAndStage(page, of: list, source: source) else { break }
                        staged += 1
                    }
                    return staged
                }
            }
            return await group.reduce(0, +)
        }
    }

    /// Claims the next page to fetch ahead, waiting while the first page is not committed; `nil` when
    /// there is nothing to fetch ahead (or it cannot be known where the list ends).
    private func nextPageAhead<Source: AddressablePageSource>(
        of list: SharedList, source: Source, leaseTaken: @Sendable () -> Bool
    ) async -> PageToken? where Source.Item == RawItem {
        while !leaseTaken(), !Task.isCancelled {
            guard let head = try? await sharedListHead(list.list) else {
                // The lease holder has not committed the first page yet.
                try? await Task.sleep(for: .milliseconds(20))
                continue
            }
            guard !head.endReached, let total = head.total, let firstPageItemCount = head.firstPageItemCount,
                let pageCount = source.pageCount(forTotal: total, pageItemCount: firstPageItemCount)
            else { return nil }
            let first = max(1, head.committedPages)
            let end = min(pageCount, first + Self.pagesFetchedAhead)
            guard first < end else { return nil }
            let pages = (first..<end).compactMap { index in source.token(forPageAt: index).map { (index, $0) } }
            guard pages.count == end - first else { return nil }
            guard let claimed = try? await claimAhead(list, pages: pages) else {
                // Every page up to the window is claimed: the end, or the window moves on as pages are committed.
                if end == pageCount { return nil }
                try? await Task.sleep(for: .milliseconds(20))
                continue
            }
            return claimed
        }
        return nil
    }

    /// Fetches a claimed page and stages it; `false` when it failed (the claim is given back).
    private func fetchAndStage<Source: AddressablePageSource>(
        _ token: PageToken, of list: SharedList, source: Source
    ) async -> Bool where Source.Item == RawItem {
        do {
            guard let page = try await source.fetch(PageRequest(token: token)).page else {
                try await releaseClaim(list, token: token)
                return false
            }
            _ = try await stage(page, of: list, token: token)
            return true
        } catch {
            try? await releaseClaim(list, token: token)
            return false
        }
    }
}
