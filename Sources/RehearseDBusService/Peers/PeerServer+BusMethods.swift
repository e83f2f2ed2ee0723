import CDBus
import RehearseDBusInterface
import RehearseDBusWire

/// The bus's own methods, answered for peers: clients that expect a bus (gdbus --address, jeepney,
/// rehearse inject and monitor) greet a peer too and ask for signals.
extension PeerServer {
    /// The answer to `message`, `member` of `org.freedesktop.DBus` with `signature`, from `peer`:
    /// a name for `Hello`, and its match rules kept for `AddMatch` and `RemoveMatch` (a peer gets
    /// the signals its rules take, of the default session and of its own sessions); nil for any
    /// other member.
    func answerBusMethod(_ message: OpaquePointer, member: String, signature: String, of peer: Peer) -> SimulatorObject.Answer? {
        switch (member, signature) {
        case ("Hello", ""):
            helloCount += 1
            var name = MessageWriter()
            name.append(":peer.\(helloCount)")
            return .reply(name)
        case ("AddMatch", "s"), ("RemoveMatch", "s"):
            return changeMatchRules(of: peer, adding: member == "AddMatch", message)
        default:
            return nil
        }
    }

    /// `AddMatch` or `RemoveMatch` from `peer`.
    private func changeMatchRules(of peer: Peer, adding: Bool, _ message: OpaquePointer) -> SimulatorObject.Answer {
        var reader = MessageReader(message)
        guard let rule = try? reader.string(maximumBytes: PeerMatchRules.maximumRuleBytes) else {
            return .failure(
                MethodFailure(
                    .matchRuleInvalid,
                    "a match rule is at most \(PeerMatchRules.maximumRuleBytes) bytes of text"))
        }
        do {
            if adding { try peer.matchRules.add(rule) } else { try peer.matchRules.remove(rule) }
            return .reply(MessageWriter())
        } catch {
            return .failure(error)
        }
    }
}
