import Foundation
import SlippersTestSupport
import Testing

@testable import LocalAPI

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
        let listener = try #require(LoopbackSocket.make())
        #expect(PortReservation.bindReusably(listener, port: reservation.port))
        #expect(listen(listener, 4) == 0)
        #expect(connects(to: reservation.port) == 0)
        close(listener)
        #expect(connects(to: reservation.port) == ECONNREFUSED)
        #expect(try !LoopbackPort.isFree(Int(reservation.port)))
    }

    /// 0 when a connection to `port` of 127.0.0.1 is made, the error number otherwise.
    private func connects(to port: UInt16) -> Int32 {
        guard let descriptor = LoopbackSocket.make() else { return errno }
        defer { close(descriptor) }
        let connected = LoopbackSocket.withAddress(port: port) { connect(descriptor, $0, $1) }
        return connected == 0 ? 0 : errno
    }
}
