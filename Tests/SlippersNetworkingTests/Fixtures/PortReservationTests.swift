import Foundation
import SlippersTestSupport
import Testing

@testable import SlippersFixtures

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct PortReservationTests {
    @Test func aReservationHoldsAFreePortUntilItIsGiven() throws {
        var reservation = PortReservation()
        let port = Int(try #require(reservation?.port))
        #expect(port > 0)
        #expect(try !LoopbackPort.isFree(port))
        reservation = nil
        #expect(try LoopbackPort.isFree(port))
    }

    /// The servers' listeners rely on it: they listen beside their port's reservation, and once
    /// they close, the port is never free for a moment.
    @Test(.enabled(if: PortReservation.isKeptWhileListening))
    func aListenerBindsBesideTheReservationAndOnceItClosesConnectionsAreRefusedAndThePortStaysHeld() throws {
        let reservation = try #require(PortReservation())
        let listener = try tcpSocket()
        #expect(PortReservation.bindReusably(listener, port: reservation.port))
        #expect(listen(listener, 4) == 0)
        #expect(connects(to: reservation.port) == 0)
        close(listener)
        #expect(connects(to: reservation.port) == ECONNREFUSED)
        #expect(try !LoopbackPort.isFree(Int(reservation.port)))
    }

    private func tcpSocket() throws -> Int32 {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        return descriptor
    }

    /// 0 when a connection to `port` of 127.0.0.1 is made, the error number otherwise.
    private func connects(to port: UInt16) -> Int32 {
        guard let descriptor = try? tcpSocket() else { return -1 }
        defer { close(descriptor) }
        let connected = PortReservation.withLoopbackAddress(port: port) { connect(descriptor, $0, $1) }
        return connected == 0 ? 0 : errno
    }
}
