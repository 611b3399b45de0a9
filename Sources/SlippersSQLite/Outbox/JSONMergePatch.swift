import Foundation
import SlippersStorage

/// JSON merge patch (RFC 7386): the members of a patch replace those of the target, a `null`
/// member removes one, and a patch that is not an object replaces the whole target.
///
/// For example:
///
/// ```swift
/// let item = Data(#"{"id": 1, "title": "Old", "tags": ["a"]}"#.utf8)
/// let patch = Data(#"{"title": "New", "tags": null}"#.utf8)
/// try JSONMergePatch.apply(patch, to: item)    // {"id":1,"title":"New"}
/// ```
enum JSONMergePatch {
    /// The target with the patch applied, as JSON with sorted keys.
    ///
    /// - throws: `SQLiteCacheError.invalidJSON(_:)` when the target or the patch is not JSON.
    static func apply(_ patch: Data, to target: Data) throws -> Data {
        let patchValue = try value(patch, what: "the patch")
        let targetValue = try value(target, what: "the item")
        return try data(merged(patchValue, into: targetValue))
    }

    /// The patch applied to a target value.
    static func merged(_ patch: Any, into target: Any) -> Any {
        guard let patch = patch as? [String: Any] else { return patch }
        var result = target as? [String: Any] ?? [:]
        for (key, value) in patch {
            if value is NSNull {
                result[key] = nil
            } else {
                result[key] = merged(value, into: result[key] ?? NSNull())
            }
        }
        return result
    }

    /// The JSON value of some bytes.
    static func value(_ data: Data, what: String) throws -> Any {
        do {
            return try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
        } catch {
            throw SQLiteCacheError.invalidJSON("\(what) is not JSON")
        }
    }

    /// A value's JSON, keys sorted.
    static func data(_ value: Any) throws -> Data {
        do {
            return try JSONSerialization.data(
                withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        } catch {
            throw SQLiteCacheError.invalidJSON("the merged item cannot be written as JSON")
        }
    }
}
