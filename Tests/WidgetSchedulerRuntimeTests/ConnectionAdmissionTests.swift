import Testing
import WidgetProtocol
@testable import WidgetSchedulerRuntime

@Suite struct ConnectionAdmissionTests {
    /// max 10 in all, 3 per user, the last 2 kept for administrators.
    private let limits = ControlLimits(maximumConnections: 10, maximumConnectionsPerUser: 3,
                                       adminReservedConnections: 2)

    /// An admission holding `connections` of uid 1000 and `others` of other users (one each).
    private func admission(ownConnections: Int, others: Int) -> ConnectionAdmission {
        var admission = ConnectionAdmission()
        for _ in 0..<ownConnections { admission.admit(uid: 1000) }
        for index in 0..<others { admission.admit(uid: 2000 + UInt32(index)) }
        return admission
    }

    @Test(arguments: [
        // (uid 1000 holds, others hold, administrator?, refusal)
        (0, 0, false, ControlError?.none),
        (2, 0, false, nil),
        (3, 0, false, ControlError.tooManyConnections(limit: 3, uid: 1000)),
        (3, 0, true, nil),
        (2, 5, false, nil),
        (2, 6, false, ControlError.tooManyConnections(limit: 8, reserved: 2)),
        (0, 8, false, ControlError.tooManyConnections(limit: 8, reserved: 2)),
        (0, 8, true, nil),
        (0, 9, true, nil),
        (0, 10, true, ControlError.tooManyConnections(limit: 10)),
        (3, 7, true, ControlError.tooManyConnections(limit: 10)),
    ])
    func refusesWhatTheLimitsForbid(own: Int, others: Int, administrator: Bool, refusal: ControlError?) {
        let admission = admission(ownConnections: own, others: others)
        #expect(admission.refusal(uid: 1000, administrator: administrator, limits: limits) == refusal)
    }

    @Test func releasingAConnectionLetsItsUserConnectAgain() {
        var admission = admission(ownConnections: 3, others: 0)
        #expect(admission.refusal(uid: 1000, administrator: false, limits: limits) != nil)
        admission.release(uid: 1000)
        #expect(admission.count(uid: 1000) == 2)
        #expect(admission.total == 2)
        #expect(admission.refusal(uid: 1000, administrator: false, limits: limits) == nil)
    }

    @Test func releasingAUserWithNoConnectionsChangesNothing() {
        var admission = admission(ownConnections: 1, others: 0)
        admission.release(uid: 42)
        #expect(admission.total == 1)
    }

    @Test(arguments: [
        (PeerCredentials(pid: 1, uid: 0, gid: 0), UInt32?.none, true),
        (PeerCredentials(pid: 1, uid: 1000, gid: 1000), nil, false),
        (PeerCredentials(pid: 1, uid: 1000, gid: 1000, groups: [1000, 990]), 990, true),
        (PeerCredentials(pid: 1, uid: 1000, gid: 990), 990, true),
        (PeerCredentials(pid: 1, uid: 1000, gid: 1000, groups: [1000]), 990, false),
    ])
    func administratorsAreRootAndTheAdminGroup(peer: PeerCredentials, adminGroup: UInt32?, expected: Bool) {
        #expect(ConnectionAdmission.isAdministrator(peer, adminGroupID: adminGroup) == expected)
    }
}
