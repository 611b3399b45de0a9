extension FixtureServer {
    /// How the list changes on every request for a page of it, as a busy server's list does while it is read.
    ///
    /// Each `GET` of a list route first inserts ``insertsPerRequest`` new items at the top (or at
    /// the end, for a list whose ``newItems`` come last), removes ``deletesPerRequest`` items at
    /// random positions and edits the title of ``editsPerRequest`` others, then answers from the
    /// list as it now stands. The positions come from a generator seeded with ``seed``: the same
    /// seed and the same order of requests change the list the same way.
    ///
    /// For example, an oldest-first list whose total holds still while items move up:
    ///
    /// ```swift
    /// server.setChurn(FixtureServer.Churn(newItems: .atTheEnd, seed: 1))
    /// ```
    public struct Churn: Sendable, Hashable {
        /// Where a list puts the items added to it.
        public enum NewItems: Sendable, Hashable {
            /// Above every other, newest first (the list's first page changes).
            case atTheTop
            /// Below every other, oldest first (a removal moves the items after it up, and the total holds).
            case atTheEnd
        }

        /// The items inserted per request, where ``newItems`` says.
        public var insertsPerRequest: Int
        /// The items removed per request, at random positions.
        public var deletesPerRequest: Int
        /// The items whose title changes per request, at random positions.
        public var editsPerRequest: Int
        /// Where the inserted items go; at the top unless told.
        public var newItems: NewItems
        /// The seed of the positions chosen.
        public var seed: UInt64
        /// The requests for the list's pages that leave it as it is before the first that changes it; 0 unless told.
        public var unchangedRequests = 0
        /// The most requests that change the list, after which it holds still; every request unless told.
        public var changingRequests: Int?
        /// Where the removed items are; at random positions unless told.
        public var removals = Removals.atRandom

        /// Where a list's removed items are.
        public enum Removals: Sendable, Hashable {
            /// At random positions.
            case atRandom
            /// At the top: the list's first item, as a list that keeps its newest items only loses its oldest.
            case atTheTop
        }

        /// Creates a churn; one insert at the top, one delete and one edit per request unless told.
        public init(
            insertsPerRequest: Int = 1, deletesPerRequest: Int = 1, editsPerRequest: Int = 1,
            newItems: NewItems = .atTheTop, seed: UInt64
        ) {
            self.insertsPerRequest = max(0, insertsPerRequest)
            self.deletesPerRequest = max(0, deletesPerRequest)
            self.editsPerRequest = max(0, editsPerRequest)
            self.newItems = newItems
            self.seed = seed
        }
    }

    /// Changes the list on every request for one of its pages from now on; `nil` holds it still.
    public func setChurn(_ churn: Churn?) {
        state.withLock { state in
            state.churn = churn
            state.churnRandom = SplitMix64(seed: churn?.seed ?? 0)
            state.churnRequests = 0
        }
    }

    /// The ids of the list as it stands, from the top.
    public var listedIDs: [Int] {
        let catalog = state.withLock { $0.catalog }
        return (0..<catalog.count).map(catalog.id(at:))
    }

    /// What an answer is rendered from, taken in one step with the change a request for a list's
    /// page makes when the list churns.
    func snapshot(changingTheList: Bool) -> (Configuration, FixtureCatalog, UInt16) {
        state.withLock { state in
            if changingTheList, state.churn != nil { state.churnRequests += 1 }
            if changingTheList, let churn = state.churn, state.churnRequests > churn.unchangedRequests,
                churn.changingRequests.map({ state.churnRequests <= churn.unchangedRequests + $0 }) ?? true
            {
                switch churn.newItems {
                case .atTheTop: state.catalog.insertAtTop(count: churn.insertsPerRequest)
                case .atTheEnd: state.catalog.append(count: churn.insertsPerRequest)
                }
                for _ in 0..<churn.deletesPerRequest where state.catalog.count > 0 {
                    let position =
                        churn.removals == .atTheTop
                        ? 0 : Int.random(in: 0..<state.catalog.count, using: &state.churnRandom)
                    _ = state.catalog.remove(id: state.catalog.id(at: position))
                }
                for _ in 0..<churn.editsPerRequest where state.catalog.count > 0 {
                    let position = Int.random(in: 0..<state.catalog.count, using: &state.churnRandom)
                    let id = state.catalog.id(at: position)
                    _ = state.catalog.update(id: id, title: "Item \(id), edited at version \(state.catalog.version)")
                }
            }
            return (state.configuration, state.catalog, state.port)
        }
    }
}
