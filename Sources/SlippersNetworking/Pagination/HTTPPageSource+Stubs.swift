extension HTTPPageSource {
    /// This source with its pages answered by `stub` whenever stubbing is on.
    ///
    /// - parameter stub: The canned pages.
    /// - parameter always: Whether to stub this source even when the client's configuration does not stub.
    public func stubbed(_ stub: PageStub, always: Bool = false) -> HTTPPageSource {
        var copy = self
        copy.stub = stub
        copy.shouldStub = always
        return copy
    }

    /// Whether requests are answered by the stub instead of the network: stubbing is on for the
    /// client's configuration or for this source.
    var isStubbing: Bool { client.configuration.shouldStub || shouldStub }

    /// The client that sends this source's requests: the source's client, or, when stubbing is on,
    /// the same client over the stub's transport (its retries, authentication and origin policy still apply).
    ///
    /// - throws: ``NetworkError`` of kind ``NetworkError/Kind/missingStub(path:)`` when stubbing is on
    ///   and the source has no stub: a stubbed list never reaches the network.
    func sendingClient() throws -> APIClient {
        guard isStubbing else { return client }
        guard let stub else { throw NetworkError(.missingStub(path: url.path)) }
        var stubbed = client
        stubbed.transport = stub.transport
        return stubbed
    }
}
