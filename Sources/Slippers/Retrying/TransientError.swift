/// An error that knows whether trying the same operation again may succeed.
///
/// Layers that retry without knowing where an error comes from (the cache's
/// sync, which pages any ``PageSource``) ask this protocol. A dropped
/// connection or a `503` is transient; a `404`, a body that is not the
/// expected JSON, or a refused origin is not.
///
/// For example:
///
/// ```swift
/// struct Flaky: TransientError { var isTransient: Bool { true } }
/// ```
public protocol TransientError: Error {
    /// Whether the same operation, tried again later, may succeed.
    var isTransient: Bool { get }
}
