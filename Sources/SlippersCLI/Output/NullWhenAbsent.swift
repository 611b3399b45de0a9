// swift-format-ignore: UseSynthesizedInitializer
/// An optional that `--json` output writes as `null` when absent.
///
/// Synthesized `Encodable` leaves a `nil` optional's key out; a script reading
/// the output should find every key, so records mark their optionals with it.
@propertyWrapper
struct NullWhenAbsent<Value: Encodable>: Encodable {
    var wrappedValue: Value?

    // Spelled out: it is what lets a record set a wrapped property from a plain optional.
    init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}
