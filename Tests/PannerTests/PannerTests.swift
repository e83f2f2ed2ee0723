import RehearseCore
import RehearseTesting
import Testing

@testable import Panner

/// The photo-panner scene on an iPhone 5 (320 × 568) with the default 2000 × 500 photo:
/// zoom = (568 / 320) × (2000 / 500) = 7.1 (maximumZoomScaleForImage), content 2272 × 4032.8,
/// centred at (976, 1732.4).
private func harness(
    _ configure: (inout Panner.Configuration) -> Void = { _ in },
    scene extra: (Scene) throws -> Void = { _ in }
) throws -> PluginHarness<Panner> {
    var configuration = Panner.Configuration()
    configure(&configuration)
    return try PluginHarness(Panner.self, configuration: configuration) { scene in
        try Panner.scene?.build(scene)
        try extra(scene)
    }
}

private func sample(x: Double = 0, y: Double, z: Double = 0) -> Event {
    .motion(MotionSample(rotationRate: Vector3(x: x, y: y, z: z)))
}

@Suite struct PannerTests {
    /// The clamp's promise, checked after every event: the offset stays in the content and is a number.
    @Test func anOffsetOutsideTheContentOrNaNBreaksTheInvariants() throws {
        let harness = try harness()
        for _ in 0..<100 { harness.send(sample(y: -3)) }
        harness.advance(by: 1)
        #expect(harness.number("scroll.contentOffset.x") == 2272 - 320, "panned to the end, clamped")
        #expect(harness.brokenInvariants.isEmpty)
        try harness.simulation.scene.update("scroll") { $0.contentOffset.x = .nan }
        harness.send(.network(NetworkChange(online: true)))
        #expect(harness.brokenInvariants == ["offset never NaN", "offset within the content"])
    }

    static func makeHarness(_ configure: (inout Panner.Configuration) -> Void) throws -> PluginHarness<Panner> {
        try harness(configure)
    }

    @Test func theZoomFillsTheScreensHeightAndTheContentStartsCentred() throws {
        let harness = try harness()
        #expect(abs(harness.number("panner.maximumZoom") - 7.1) < 1e-12)
        #expect(abs(harness.number("scroll.contentSize.width") - 2272) < 1e-9)
        #expect(abs(harness.number("scroll.contentSize.height") - 4032.8) < 1e-9)
        #expect(abs(harness.number("scroll.contentOffset.x") - 976) < 1e-9)
        #expect(abs(harness.number("scroll.contentOffset.y") - 1732.4) < 1e-9)
        #expect(abs(harness.number("image.frame.width") - 2272) < 1e-9)
    }

    /// A sample acts only if |y| > |x| + |z| (calculateRotationBasedOnDeviceMotionRotationRate).
    @Test func onlySamplesDominatedByYPan() throws {
        let harness = try harness()
        harness.send(sample(x: 0.3, y: 0.5, z: 0.3))
        #expect(abs(harness.number("scroll.contentOffset.x") - 976) < 1e-9)
        harness.send(sample(x: 0.1, y: 0.5, z: 0.1))
        // 976 + (-0.5) × 7.1 × 5 = 958.25
        #expect(abs(harness.number("scroll.contentOffset.x") - 958.25) < 1e-9)
        let loose = try PannerTests.makeHarness { $0.dominance = 0.5 }
        loose.send(sample(x: 0.3, y: 0.5, z: 0.3))
        #expect(abs(loose.number("scroll.contentOffset.x") - 958.25) < 1e-9)
    }

    /// The pan is a 0.3 s easeOut from the current state; the model is the target at once.
    @Test func thePanAnimatesWithEaseOut() throws {
        let harness = try harness()
        harness.send(sample(y: 0.5))
        harness.advance(by: 0.15)
        let expected = 976 - 17.75 * TimingCurve.easeOut.progress(elapsed: 0.15, duration: 0.3)
        #expect(abs(harness.number("scroll.presentation.contentOffset.x") - expected) < 1e-9)
        harness.advance(by: 0.15)
        #expect(abs(harness.number("scroll.presentation.contentOffset.x") - 958.25) < 1e-9)
    }

    /// Clamped to [0, contentW - boundsW] = [0, 1952]; the model offset accumulates.
    @Test func theOffsetIsClampedAtBothEnds() throws {
        let harness = try harness()
        harness.send(sample(y: -100))
        #expect(abs(harness.number("scroll.contentOffset.x") - 1952) < 1e-9)
        harness.send(sample(y: 200))
        #expect(harness.number("scroll.contentOffset.x") == 0)
        #expect(abs(harness.number("scroll.contentOffset.y") - 1732.4) < 1e-9)
    }

    /// displayLinkUpdate: pct = offset / (contentW - visibleW), bar = visibleW / contentW,
    /// strokeStart = pct × (1 - bar), strokeEnd = strokeStart + bar, from presentation values.
    @Test func theScrollBarFollowsThePresentationOffsetOnEveryTick() throws {
        let harness = try harness()
        let bar = 320.0 / 2272
        harness.advance(by: 1.0 / 60)
        #expect(abs(harness.number("scrollBar.strokeStart") - 0.5 * (1 - bar)) < 1e-9)
        #expect(abs(harness.number("scrollBar.strokeEnd") - (0.5 * (1 - bar) + bar)) < 1e-9)
        harness.send(sample(y: 10))
        harness.advance(by: 0.1)
        let offset = harness.number("scroll.presentation.contentOffset.x")
        #expect(offset > 621 && offset < 976)
        // The last tick was at 0.1 + 1/60 s, exactly when the bar was read: 7 frames of 60 Hz.
        let tickOffset = harness.number("scroll.presentation.contentOffset.x")
        #expect(abs(harness.number("scrollBar.strokeStart") - tickOffset / 1952 * (1 - bar)) < 1e-9)
        #expect(harness.number("scrollBar.presentation.strokeStart") == harness.number("scrollBar.strokeStart"))
    }

    /// toggleMotionBasedPan: a tap turns motion off at once and zooms out over 0.3 s; the next zooms
    /// back in and motion returns only when that animation completes.
    @Test func aTapTogglesZoomAndMotionWithTheOriginalsTiming() throws {
        let harness = try harness()
        harness.send(.tap(Tap(point: Point(x: 100, y: 100))))
        #expect(harness.value("panner.motionEnabled") == false)
        harness.advance(by: 0.3)
        #expect(harness.value("scroll.presentation.contentSize") == Size(width: 320, height: 568).fieldValue)
        #expect(harness.value("scroll.contentOffset") == Point.zero.fieldValue)
        harness.send(sample(y: -1))
        #expect(harness.value("scroll.contentOffset") == Point.zero.fieldValue)
        harness.send(.tap(Tap(point: Point(x: 100, y: 100))))
        harness.advance(by: 0.2)
        harness.send(sample(y: 0.5))
        #expect(abs(harness.number("scroll.contentOffset.x") - 976) < 1e-9)
        harness.advance(by: 0.1)
        #expect(harness.value("panner.motionEnabled") == true)
        harness.send(sample(y: 0.5))
        #expect(abs(harness.number("scroll.contentOffset.x") - 958.25) < 1e-9)
    }

    /// A second of samples (61 at 60 Hz, 31 at 30 Hz, first and last a second apart), each step
    /// -0.05 × 7.1 × 5 = -1.775: per sample the pan depends on the rate; scaled by the interval it
    /// is 60 steps' worth at either rate (the first sample only starts the clock).
    @Test func scaleByIntervalMakesTheSpeedIndependentOfTheSensorRate() throws {
        func pan(rate: Int, scaled: Bool) throws -> Double {
            let harness = try harness { $0.scaleByInterval = scaled }
            for index in 0...rate {
                if index > 0 { harness.advance(by: 1 / Double(rate)) }
                harness.send(sample(y: 0.05))
            }
            return 976 - harness.number("scroll.contentOffset.x")
        }
        #expect(abs(try pan(rate: 60, scaled: false) - 61 * 1.775) < 1e-6)
        #expect(abs(try pan(rate: 30, scaled: false) - 31 * 1.775) < 1e-6)
        // Intervals of 1/60 s are whole nanoseconds on the virtual clock (off by up to 0.5 ns, 3e-8
        // relative): 106.5 is met within 1e-5.
        #expect(abs(try pan(rate: 60, scaled: true) - 60 * 1.775) < 1e-5)
        #expect(abs(try pan(rate: 30, scaled: true) - 60 * 1.775) < 1e-5)
    }

    @Test func verticalAxisPansATallPhotoWithRotationAboutX() throws {
        let harness = try harness {
            $0.axis = .vertical
            $0.image = Panner.ImageSize(width: 500, height: 2000)
        }
        // (320 / 568) × (2000 / 500) = 2.2535…; content 721.1 × 1280.
        let zoom = 320.0 / 568 * 4
        #expect(abs(harness.number("panner.maximumZoom") - zoom) < 1e-12)
        let start = harness.number("scroll.contentOffset.y")
        harness.send(sample(x: 0.5, y: 0.1))
        #expect(abs(harness.number("scroll.contentOffset.y") - (start - 0.5 * zoom * 5)) < 1e-9)
    }

    /// Never NaN: a zero-sized photo, a zero-sized scroll view, or a photo narrower than the screen.
    @Test(arguments: [(0.0, 500.0, 320.0), (2000, 0, 320), (2000, 500, 0), (100, 500, 320)])
    func degenerateSizesGiveDefinedValues(imageWidth: Double, imageHeight: Double, scrollWidth: Double) throws {
        let harness = try harness(
            { $0.image = Panner.ImageSize(width: imageWidth, height: imageHeight) },
            scene: { scene in
                try scene.update("scroll") { $0.frame.size.width = scrollWidth }
            })
        harness.send(sample(y: -3))
        harness.advance(by: 0.5)
        for path in [
            "scroll.contentOffset.x", "scroll.contentOffset.y", "scrollBar.strokeStart", "scrollBar.strokeEnd",
            "panner.maximumZoom",
        ] {
            #expect(harness.number(path).isFinite, "\(path)")
        }
        #expect(harness.number("panner.maximumZoom") > 0)
        if imageWidth == 100 || harness.number("panner.maximumZoom") == 1 {
            #expect(harness.number("scroll.contentOffset.x") == 0)
            #expect(harness.number("scrollBar.strokeStart") == 0)
            #expect(harness.number("scrollBar.strokeEnd") == 1)
        }
    }

    /// A photo's ratio past any zoom a node may have (1e308 × 1 would zoom by 1.775e308: content
    /// infinitely wide, offset NaN) zooms to the nearest of ScenarioLimits.zoomScale's bounds, as a
    /// zoom scale given in a file must be: 1000 for a wide one, 0.001 for a narrow one.
    @Test(arguments: [(1e308, 1.0, 1000.0), (1, 1e-300, 1000), (1, 1e300, 0.001), (1e-300, 1, 0.001)])
    func anExtremePhotoZoomsWithinTheZoomScaleLimit(imageWidth: Double, imageHeight: Double, zoom: Double) throws {
        let harness = try harness { $0.image = Panner.ImageSize(width: imageWidth, height: imageHeight) }
        harness.send(sample(y: -3))
        harness.advance(by: 0.5)
        #expect(harness.number("panner.maximumZoom") == zoom)
        #expect(harness.number("scroll.zoomScale") == zoom)
        #expect(harness.number("scroll.contentSize.width") == 320 * zoom)
        #expect(harness.number("scroll.contentOffset.x").isFinite)
        #expect(harness.brokenInvariants.isEmpty)
    }
}

/// Its declarations say what it does (RehearseTesting's conformance kit).
@Test func pannerConforms() {
    #expect(PluginConformance.problems(of: Panner.self) == [])
}
