import Foundation
import MultipartKit
import SlippersNetworking
import Testing

/// The encoder's output, parsed back by a real multipart parser (vapor/multipart-kit).
@Suite struct MultipartFormEncoderTests {
    struct ParsedPart: Equatable {
        var headers: [String: String]
        var body: [UInt8]
        var disposition: String { headers["content-disposition"] ?? "" }
    }

    private func parse(_ bytes: [UInt8], boundary: String) throws -> [ParsedPart] {
        let parser = MultipartParser(boundary: boundary)
        var parts: [ParsedPart] = []
        var current = ParsedPart(headers: [:], body: [])
        parser.onHeader = { name, value in current.headers[name.lowercased()] = value }
        parser.onBody = { buffer in current.body += buffer.readBytes(length: buffer.readableBytes) ?? [] }
        parser.onPartComplete = {
            parts.append(current)
            current = ParsedPart(headers: [:], body: [])
        }
        try parser.execute(bytes)
        return parts
    }

    struct Profile: Codable {
        struct Address: Codable {
            var city: String
            var zip: Int
        }
        var name: String
        var age: Int
        var admin: Bool
        var nickname: String?
        var tags: [String]
        var address: Address
    }

    @Test func textFieldsNestedValuesAndArraysDecodeWithMultipartKit() throws {
        let profile = Profile(
            name: "Zoë \"Z\"", age: 41, admin: true, nickname: nil, tags: ["a", "b"],
            address: .init(city: "Lyon", zip: 69_001))
        let form = try MultipartFormEncoder().encode(profile, boundary: "test-boundary")
        let body = String(decoding: try form.data(), as: UTF8.self)
        let decoded = try FormDataDecoder().decode(Profile.self, from: body, boundary: "test-boundary")
        #expect(decoded.name == profile.name)
        #expect(decoded.age == 41)
        #expect(decoded.admin)
        #expect(decoded.nickname == nil)
        #expect(decoded.tags == ["a", "b"])
        #expect(decoded.address.city == "Lyon")
        #expect(decoded.address.zip == 69_001)
        #expect(form.contentType == "multipart/form-data; boundary=test-boundary")
    }

    struct Upload: Encodable {
        var title: String
        var attachment: MultipartFile
        var thumbnail: MultipartFile
    }

    @Test func filePartsCarryTheirNameContentTypeAndBytes() throws {
        let upload = Upload(
            title: "Report",
            attachment: MultipartFile(filename: "report.csv", contentType: "text/csv", data: Data("a,b\n1,2\n".utf8)),
            thumbnail: MultipartFile(
                filename: "t.png", contentType: "image/png", data: Data([0x89, 0x50, 0x00, 0x0D, 0x0A])))
        let form = try MultipartFormEncoder().encode(upload, boundary: "b0undary")
        let parts = try parse(Array(try form.data()), boundary: "b0undary")
        #expect(parts.count == 3)
        #expect(parts[0].disposition == #"form-data; name="title""#)
        #expect(parts[0].body == Array("Report".utf8))
        #expect(parts[1].disposition == #"form-data; name="attachment"; filename="report.csv""#)
        #expect(parts[1].headers["content-type"] == "text/csv")
        #expect(parts[1].body == Array("a,b\n1,2\n".utf8))
        #expect(parts[2].headers["content-type"] == "image/png")
        #expect(parts[2].body == [0x89, 0x50, 0x00, 0x0D, 0x0A])
    }

    @Test func aLargeFilePartIsCopiedFromDiskIntoTheBodyFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("multipart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("big.bin")
        let size = 5 * MultipartFormData.chunkSize + 123
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        try Data(bytes).write(to: source)

        let upload = Upload(
            title: "Big", attachment: MultipartFile(fileURL: source, contentType: "application/octet-stream"),
            thumbnail: MultipartFile(filename: "empty.txt", contentType: "text/plain", data: Data()))
        let form = try MultipartFormEncoder().encode(upload, boundary: "big-boundary")
        let endpoint = try Endpoint(.post, "uploads").withMultipartBody(form)
        guard case .file(let bodyFile) = endpoint.body else {
            Issue.record("expected a file body")
            return
        }
        defer { try? FileManager.default.removeItem(at: bodyFile) }
        #expect(endpoint.headers["Content-Type"] == form.contentType)

        let parts = try parse(Array(try Data(contentsOf: bodyFile)), boundary: "big-boundary")
        #expect(parts.count == 3)
        #expect(parts[1].disposition == #"form-data; name="attachment"; filename="big.bin""#)
        #expect(parts[1].body == bytes)
        #expect(parts[2].body.isEmpty)

        var largestPiece = 0
        try form.write { largestPiece = max(largestPiece, $0.count) }
        #expect(largestPiece <= MultipartFormData.chunkSize)

        let request = try endpoint.urlRequest(in: ServerConfiguration(host: "api.test"))
        #expect(request.httpBodyStream != nil)
        #expect(request.httpBody == nil)
    }

    @Test func aTopLevelValueThatIsNotKeyedIsAnError() {
        #expect(throws: EncodingError.self) { try MultipartFormEncoder().encode("just text") }
    }
}
