import Foundation
import Slippers
import Synchronization

/// Cursors that say where they point: an offset, plain or encoded, that moves by the page size.
///
/// A Relay connection served by the common GraphQL libraries hands out
/// `base64("arrayconnection:" + offset)`, the offset of the page's last item; other servers send
/// `base64({"offset": N})` or a bare number. Learnt from the first page (its next cursor names
/// the offset of its last item, or of the item after it), such cursors name every page, so a
/// sync asks for pages ahead concurrently; each page is kept only when the page before it
/// announces the very cursor that was made (`PagesInFlight`), else the walk goes on with the real
/// one, page after page.
struct PredictedCursors: Hashable, Sendable {
    /// How an offset is written in a cursor.
    enum Encoding: Hashable, Sendable {
        /// The number itself: `"100"`.
        case plain
        /// Base64 of a prefix and the number: `base64("arrayconnection:99")`.
        case prefixed(String)
        /// Base64 of a JSON object with the number in one member: `base64({"offset":100})`.
        case json(member: String)
    }

    /// What the offset in a page's next cursor is.
    enum Anchor: Hashable, Sendable {
        /// The offset of the page's last item (Relay's `endCursor`).
        case lastItem
        /// The offset of the next page's first item.
        case nextItem
    }

    var encoding: Encoding
    var anchor: Anchor
    /// The number of items a page holds: the first page's.
    var pageSize: Int

    /// The cursors of a list whose first page held `itemCount` items and announced `next`; `nil`
    /// when `next` names no such offset.
    init?(firstPageNext next: String, itemCount: Int) {
        guard itemCount > 0, let (encoding, offset) = Self.decode(next) else { return nil }
        switch offset {
        case itemCount - 1: anchor = .lastItem
        case itemCount: anchor = .nextItem
        default: return nil
        }
        self.encoding = encoding
        self.pageSize = itemCount
    }

    /// The cursor that asks for the page at `index` (from 0; the first page has none).
    func token(forPageAt index: Int) -> PageToken? {
        guard index > 0 else { return nil }
        let offset = index * pageSize - (anchor == .lastItem ? 1 : 0)
        return PageToken(Self.encode(offset, as: encoding))
    }

    /// The number of pages of `total` items.
    func pageCount(forTotal total: Int) -> Int {
        max(1, (total + pageSize - 1) / pageSize)
    }

    static func encode(_ offset: Int, as encoding: Encoding) -> String {
        switch encoding {
        case .plain: String(offset)
        case .prefixed(let prefix): Data("\(prefix):\(offset)".utf8).base64EncodedString()
        case .json(let member): Data("{\"\(member)\":\(offset)}".utf8).base64EncodedString()
        }
    }

    /// The encoding and the offset a cursor holds, when it holds one the encodings above write
    /// back exactly as the server wrote it.
    static func decode(_ cursor: String) -> (Encoding, Int)? {
        if let number = Int(cursor), number >= 0, String(number) == cursor { return (.plain, number) }
        guard let data = Data(base64Encoded: cursor), let text = String(data: data, encoding: .utf8) else {
            return nil
        }
        let decoded: (Encoding, Int)?
        if let colon = text.lastIndex(of: ":"), let number = Int(text[text.index(after: colon)...]), number >= 0,
            text[..<colon].allSatisfy({ $0.isLetter || $0 == "_" || $0 == "-" })
        {
            decoded = (.prefixed(String(text[..<colon])), number)
        } else if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], object.count == 1,
            let (member, value) = object.first, let number = value as? Int, number >= 0
        {
            decoded = (.json(member: member), number)
        } else {
            decoded = nil
        }
        // Only a cursor made again byte for byte is predicted: the server compares what it receives.
        guard let decoded, encode(decoded.1, as: decoded.0) == cursor else { return nil }
        return decoded
    }
}

/// The predicted cursors a source and its copies learnt from the first page they fetched.
final class LearntCursors: Sendable {
    private let cursors = Mutex<PredictedCursors?>(nil)

    var value: PredictedCursors? { cursors.withLock { $0 } }

    /// Learns from the first page: its item count and its next cursor.
    func learn(firstPageNext next: String, itemCount: Int) {
        let learnt = PredictedCursors(firstPageNext: next, itemCount: itemCount)
        cursors.withLock { $0 = learnt }
    }
}
