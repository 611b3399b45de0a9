import Synchronization

/// Values made once per key and kept for the process's life.
///
/// The metrics keep their handles here: a metrics backend makes a handle at a cost (its name
/// checked, a registry looked up under a lock) that every page or request should not pay again.
package final class KeyedMemo<Value: Sendable>: Sendable {
    private let values = Mutex<[String: Value]>([:])

    /// Creates an empty memo.
    package init() {}

    /// The value kept for `key`, made by `make` the first time.
    package func value(for key: String, make: () -> Value) -> Value {
        values.withLock { values in
            if let value = values[key] { return value }
            let value = make()
            values[key] = value
            return value
        }
    }
}
