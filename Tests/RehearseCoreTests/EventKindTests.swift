import Testing

@testable import RehearseCore

/// Every built-in event has its typed kind (`context.on(.gesturePan)`), and each kind reads its
/// own event and no other.
@Suite struct EventKindTests {
    /// An `EventKind` with its payload type erased.
    struct ErasedKind {
        let name: String
        let payloadType: Any.Type
        let reads: @Sendable (Event) -> Bool

        init<Payload>(_ kind: EventKind<Payload>) {
            name = kind.name
            payloadType = Payload.self
            reads = { kind.payload($0) != nil }
        }
    }

    /// The kind of each built-in event. An exhaustive switch: a new case of `BuiltinEvent` does
    /// not compile here until it has its `EventKind`.
    static func kind(of event: BuiltinEvent) -> ErasedKind {
        switch event {
        case .keyboardWillShow: ErasedKind(EventKind.keyboardWillShow)
        case .keyboardDidShow: ErasedKind(EventKind.keyboardDidShow)
        case .keyboardWillHide: ErasedKind(EventKind.keyboardWillHide)
        case .keyboardDidHide: ErasedKind(EventKind.keyboardDidHide)
        case .focus: ErasedKind(EventKind.focus)
        case .focusChanged: ErasedKind(EventKind.focusChanged)
        case .resign: ErasedKind(EventKind.resign)
        case .tap: ErasedKind(EventKind.tap)
        case .text: ErasedKind(EventKind.text)
        case .returnKey: ErasedKind(EventKind.returnKey)
        case .motion: ErasedKind(EventKind.motion)
        case .tick: ErasedKind(EventKind.tick)
        case .orientation: ErasedKind(EventKind.orientation)
        case .animationFinished: ErasedKind(EventKind.animationFinished)
        case .network: ErasedKind(EventKind.network)
        case .pluginFailed: ErasedKind(EventKind.pluginFailed)
        case .invariantFailed: ErasedKind(EventKind.invariantFailed)
        case .touchBegan: ErasedKind(EventKind.touchBegan)
        case .touchMoved: ErasedKind(EventKind.touchMoved)
        case .touchEnded: ErasedKind(EventKind.touchEnded)
        case .touchCancelled: ErasedKind(EventKind.touchCancelled)
        case .gesturePan: ErasedKind(EventKind.gesturePan)
        case .gestureSwipe: ErasedKind(EventKind.gestureSwipe)
        case .gestureLongPress: ErasedKind(EventKind.gestureLongPress)
        case .gesturePinch: ErasedKind(EventKind.gesturePinch)
        case .scrollWillBeginDragging: ErasedKind(EventKind.scrollWillBeginDragging)
        case .scrollDidScroll: ErasedKind(EventKind.scrollDidScroll)
        case .scrollWillEndDragging: ErasedKind(EventKind.scrollWillEndDragging)
        case .scrollDidEndDecelerating: ErasedKind(EventKind.scrollDidEndDecelerating)
        case .scrollDidScrollToTop: ErasedKind(EventKind.scrollDidScrollToTop)
        case .statusBarTap: ErasedKind(EventKind.statusBarTap)
        case .scrollWillBeginZooming: ErasedKind(EventKind.scrollWillBeginZooming)
        case .scrollDidZoom: ErasedKind(EventKind.scrollDidZoom)
        case .scrollDidEndZooming: ErasedKind(EventKind.scrollDidEndZooming)
        }
    }

    /// Each kind is named as its event, carries its payload type, and reads a sample of its own
    /// event and none of the others' (a kind whose extraction names the wrong case would never fire).
    @Test(arguments: BuiltinEvent.allCases)
    func eachBuiltinEventHasAKindThatReadsItAndNothingElse(event: BuiltinEvent) throws {
        let kind = Self.kind(of: event)
        #expect(kind.name == event.name)
        #expect(ObjectIdentifier(kind.payloadType) == ObjectIdentifier(event.payloadType), "\(event.name): \(kind.payloadType)")
        let samples = EventCodecTests.everyEvent
        let own = samples.filter { $0.builtin == event }
        try #require(!own.isEmpty, "no sample of \(event.name) in EventCodecTests.everyEvent")
        for sample in own { #expect(kind.reads(sample), "\(event.name) does not read its own event") }
        for sample in samples where sample.builtin != event {
            #expect(!kind.reads(sample), "\(event.name) reads \(sample.name)")
        }
    }
}
