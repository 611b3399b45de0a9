// The few SwiftUI declarations the documentation's examples use, for type-checking them where
// SwiftUI does not exist (Linux): Scripts/check-doc-examples builds this file as a module named
// SwiftUI there, and uses the real one on Apple platforms. It checks what an example asks of our
// libraries, not SwiftUI's own signatures: keep it to the shapes the examples need.
@_exported import Foundation

@MainActor @preconcurrency public protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
}

extension Never: View {
    public var body: Never { fatalError() }
}

@MainActor @resultBuilder public enum ViewBuilder {
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView {
        TupleView()
    }
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildEither<First: View, Second: View>(first: First) -> Either<First, Second> {
        Either()
    }
    public static func buildEither<First: View, Second: View>(second: Second) -> Either<First, Second> {
        Either()
    }
}

extension Optional: View where Wrapped: View {
    public var body: Never { fatalError() }
}

public struct EmptyView: View {
    public init() {}
    public var body: Never { fatalError() }
}

public struct TupleView: View {
    public var body: Never { fatalError() }
}

public struct Either<First: View, Second: View>: View {
    public var body: Never { fatalError() }
}

public struct ModifiedView: View {
    public var body: Never { fatalError() }
}

@propertyWrapper public struct State<Value> {
    public init(wrappedValue: Value) {}
    public var wrappedValue: Value { get { fatalError() } nonmutating set {} }
    public var projectedValue: Binding<Value> { fatalError() }
}

@propertyWrapper @dynamicMemberLookup public struct Binding<Value> {
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) { fatalError() }
    public var wrappedValue: Value { get { fatalError() } nonmutating set {} }
    public var projectedValue: Binding<Value> { self }
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        fatalError()
    }
}

public struct Text: View {
    public init(_ content: some StringProtocol) {}
    public var body: Never { fatalError() }
}

public struct Toggle: View {
    public init(_ title: some StringProtocol, isOn: Binding<Bool>) {}
    public var body: Never { fatalError() }
}

public struct List: View {
    public init<Data: RandomAccessCollection, RowContent: View>(
        _ data: Data, @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
    ) where Data.Element: Identifiable {}
    public init<Content: View>(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}

public struct ForEach: View {
    public init<Data: RandomAccessCollection, RowContent: View>(
        _ data: Data, @ViewBuilder content: @escaping (Data.Element) -> RowContent
    ) where Data.Element: Identifiable {}
    public var body: Never { fatalError() }
}

extension View {
    public func onAppear(perform action: (() -> Void)? = nil) -> ModifiedView { ModifiedView() }
    public func overlay<Overlay: View>(@ViewBuilder content: () -> Overlay) -> ModifiedView { ModifiedView() }
    public func task(_ action: @escaping @Sendable @isolated(any) () async -> Void) -> ModifiedView {
        ModifiedView()
    }
    public func refreshable(action: @escaping @Sendable () async -> Void) -> ModifiedView { ModifiedView() }
    public func searchable(text: Binding<String>, prompt: some StringProtocol) -> ModifiedView { ModifiedView() }
}
