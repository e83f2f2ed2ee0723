import Foundation
import Testing

@testable import RehearseCore

/// The scroll view's formulas, each checked against values computed another way: by hand (the
/// numbers in the tables were worked out with `python3 -c` from the published formula, as the
/// comments show), by a different but equivalent form, or by numerical integration of the
/// definition. Within 0.5 points, at display frame times.
@Suite struct ScrollPhysicsTests {
    /// Frame times at 60 Hz that fall on whole milliseconds (every third frame, 50 ms apart), in frames.
    static let wholeMillisecondFrames = [3, 6, 30, 60, 120]

    /// The definition of `decelerationRate`: the velocity keeps the fraction `r` of itself each
    /// millisecond (Apple's `UIScrollView.DecelerationRate` documentation; WWDC18 "Designing Fluid
    /// Interfaces"). Integrated numerically, millisecond by millisecond, taking each millisecond's
    /// velocity at its middle (`v0 · r^k · √r`): only multiplications, no `pow` and no `log`.
    static func integrated(velocity: Double, rate: Double, milliseconds: Int) -> Double {
        var position = 0.0
        var kept = 1.0
        let middle = rate.squareRoot()
        for _ in 0..<milliseconds {
            position += velocity * kept * middle / 1000
            kept *= rate
        }
        return position
    }

    @Test(arguments: [DecelerationRate.normal, .fast], [1000.0, -1500.0, 250.0])
    func decelerationMatchesTheIntegratedDefinitionAtFrameTimes(rate: DecelerationRate, velocity: Double) {
        let deceleration = Deceleration(start: 40, velocity: velocity, rate: rate)
        for frames in Self.wholeMillisecondFrames {
            let milliseconds = frames * 1000 / 60
            let expected = 40 + Self.integrated(velocity: velocity, rate: rate.value, milliseconds: milliseconds)
            #expect(abs(deceleration.offset(at: Double(frames) / 60) - expected) <= 0.5, "\(frames) frames at \(rate.value)")
        }
    }

    /// `x(t) = v0 (r^(1000 t) - 1) / (1000 ln r)` worked out by hand (`python3 -c "import math;
    /// print(v*(r**(1000*t)-1)/(1000*math.log(r)))"`) at frames 1, 10, 30, 60 and 120 of a 60 Hz
    /// display, with the resting point `-v / (1000 ln r)`.
    static let handWorked: [(rate: DecelerationRate, velocity: Double, offsets: [Double], rest: Double)] = [
        (.normal, 1000, [16.392, 141.712, 315.928, 432.035, 490.388], 499.5),
        (.normal, -1500, [-24.588, -212.568, -473.892, -648.053, -735.582], -749.25),
        (.fast, 1000, [15.346, 80.863, 98.845, 99.495, 99.499], 99.499),
        (.fast, -1500, [-23.018, -121.295, -148.268, -149.242, -149.249], -149.249),
    ]

    @Test(arguments: 0..<4)
    func decelerationMatchesHandWorkedValues(row: Int) {
        let (rate, velocity, offsets, rest) = Self.handWorked[row]
        let deceleration = Deceleration(start: 0, velocity: velocity, rate: rate)
        for (frame, expected) in zip([1, 10, 30, 60, 120], offsets) {
            #expect(abs(deceleration.offset(at: Double(frame) / 60) - expected) <= 0.5)
        }
        #expect(abs(deceleration.restingOffset - rest) <= 0.5)
        // The velocity keeps r per millisecond: after 100 ms, r^100 of itself.
        #expect(
            abs(deceleration.velocity(at: 0.1) - velocity * (0..<100).reduce(1) { product, _ in product * rate.value }) < 1e-6)
    }

    /// WWDC18 "Designing Fluid Interfaces" projects a release as `(v / 1000) · r / (1 - r)`, the
    /// per-millisecond sum with each step taken at the millisecond's end; the continuous limit
    /// `x0 - v / (1000 ln r)` is larger by `|v| / 2000` points, so within 0.5 for speeds up to 1000.
    @Test(arguments: [DecelerationRate.normal, .fast], [900.0, -600.0, 120.0])
    func theRestingPointIsWWDC18sProjection(rate: DecelerationRate, velocity: Double) {
        let wwdc = (velocity / 1000) * rate.value / (1 - rate.value)
        #expect(abs(Deceleration(start: 10, velocity: velocity, rate: rate).restingOffset - (10 + wwdc)) <= 0.5)
    }

    @Test func theTimeToReachAPointAndToSettleInvertTheFormula() throws {
        let deceleration = Deceleration(start: 0, velocity: 2000, rate: .normal)
        let time = try #require(deceleration.time(toReach: 600))
        #expect(abs(deceleration.offset(at: time) - 600) < 1e-9)
        #expect(deceleration.time(toReach: 1200) == nil)  // past the resting point, 999 points
        let settle = deceleration.settlingTime(threshold: 0.25)
        #expect(abs(deceleration.restingOffset - deceleration.offset(at: settle) - 0.25) < 1e-9)
    }

    /// A rate nearer 1 than ``ScenarioLimits/decelerationRate`` is refused: at 0.9999999999999999 a
    /// 1,200-point-per-second fling moved for 3.6e14 s. At the limit the fastest fling a gesture may
    /// have comes to rest within half a pixel of a 4x screen in 205 s:
    /// `ln(0.125 / (1e7 / 0.100005)) / -0.100005` (`python3 -c`) is 204.99.
    @Test func aFlingAtTheSlowestRateComesToRestWithinMinutes() throws {
        #expect(DecelerationRate(ScenarioLimits.decelerationRate.nextUp) == nil)
        #expect(DecelerationRate(0.9999999999999999) == nil)
        let rate = try #require(DecelerationRate(ScenarioLimits.decelerationRate))
        let settle = Deceleration(start: 0, velocity: ScenarioLimits.gestureVelocity, rate: rate).settlingTime(threshold: 0.125)
        #expect(abs(settle - 204.99) < 0.01)
    }

    @Test func aTargetChosenForTheDecelerationIsWhereItRests() {
        let deceleration = Deceleration(start: 100, restingAt: 320, rate: .fast)
        #expect(abs(deceleration.restingOffset - 320) < 1e-9)
        #expect(abs(deceleration.offset(at: 5) - 320) < 1e-9)
    }

    // MARK: Rubber band

    /// Grant Paul's formula `(1 - 1 / (x c / d + 1)) d` is, multiplied out, `x c d / (d + c x)`:
    /// that form, and values worked by hand for a 568-point and a 320-point axis.
    @Test(arguments: [0.5, 10, 100, 284, 568, 5000], [568.0, 320.0])
    func theRubberBandIsGrantPaulsCurve(overshoot: Double, dimension: Double) {
        let expected = overshoot * 0.55 * dimension / (dimension + 0.55 * overshoot)
        #expect(abs(RubberBand.displacement(overshoot, dimension: dimension) - expected) <= 0.5)
        #expect(RubberBand.displacement(overshoot, dimension: dimension) < dimension)
    }

    @Test func rubberBandHandWorkedValues() {
        #expect(abs(RubberBand.displacement(100, dimension: 568) - 50.144) <= 0.5)  // 31240 / 623
        #expect(abs(RubberBand.displacement(50, dimension: 320) - 25.324) <= 0.5)
        #expect(abs(RubberBand.displacement(200, dimension: 320) - 81.860) <= 0.5)
        #expect(abs(RubberBand.displacement(1000, dimension: 320) - 202.299) <= 0.5)
        #expect(RubberBand.displacement(-10, dimension: 320) == 0)
    }

    @Test func theRubberBandAppliesPastEachEdgeAndInvertsExactly() {
        let range = 0.0...432.0
        #expect(RubberBand.offset(200, in: range, dimension: 568) == 200)
        #expect(abs(RubberBand.offset(-100, in: range, dimension: 568) + 50.144) <= 0.5)
        #expect(abs(RubberBand.offset(532, in: range, dimension: 568) - 482.144) <= 0.5)
        for offset in [-300.0, -12.5, 0, 100, 432, 440, 700] {
            let free = RubberBand.freeOffset(offset, in: range, dimension: 568)
            #expect(abs(RubberBand.offset(free, in: range, dimension: 568) - offset) < 1e-6)
        }
    }

    // MARK: The bounce spring

    /// The critically damped spring (mass 1, stiffness 100, damping 2 √(k m) = 20) integrated
    /// numerically from `m x'' = -k x - c x'` (semi-implicit Euler, 10 µs steps).
    @Test(arguments: [(-80.0, 0.0), (0, 1200), (40, -300)])
    func theBounceSpringSolvesItsEquationOfMotion(start: Double, velocity: Double) {
        let spring = BounceSpring(from: start, to: 0, velocity: velocity)
        var x = start
        var v = velocity
        var time = 0.0
        let step = 1e-5
        for frame in 1...60 {
            while time < Double(frame) / 60 - step / 2 {
                v += (-100 * x - 20 * v) * step
                x += v * step
                time += step
            }
            #expect(abs(spring.offset(at: Double(frame) / 60) - x) <= 0.5, "frame \(frame)")
        }
    }

    @Test func aSpringSettlesWithinItsThreshold() {
        let spring = BounceSpring(from: 0, to: 0, velocity: 1500)
        let settle = spring.settlingTime(threshold: 0.25)
        for millisecond in stride(from: settle, to: settle + 2, by: 0.001) {
            #expect(abs(spring.offset(at: millisecond)) <= 0.25)
        }
        #expect(abs(spring.offset(at: settle - 0.05)) > 0.25)
    }

    // MARK: Motions after release

    /// A fling that reaches the edge: before it, the deceleration; with `bounces`, the content
    /// passes the edge by at most `v / (β e)` (the peak of `v t e^(-β t)`, at `t = 1 / β`), where
    /// `v` is the velocity at the edge; without, it stops there.
    @Test func aFlingBouncesOffTheEdgeOrStopsThere() throws {
        let range = 0.0...300.0
        let threshold = ScrollAxisMotion.threshold(scale: 2)
        let bouncing = ScrollAxisMotion.release(
            at: 100, velocity: 1500, range: range, rate: .normal, bounces: true, threshold: threshold)
        let stopping = ScrollAxisMotion.release(
            at: 100, velocity: 1500, range: range, rate: .normal, bounces: false, threshold: threshold)
        let deceleration = Deceleration(start: 100, velocity: 1500, rate: .normal)
        let hit = try #require(deceleration.time(toReach: 300))
        for frame in 1..<Int(hit * 60) {
            #expect(abs(bouncing.offset(at: Double(frame) / 60) - deceleration.offset(at: Double(frame) / 60)) <= 0.5)
        }
        let edgeVelocity = deceleration.velocity(at: hit)
        let highest = (1...240).map { bouncing.offset(at: Double($0) / 240 + hit) }.max() ?? 0
        #expect(abs(highest - (300 + edgeVelocity / (BounceSpring.beta * M_E))) <= 0.5)
        #expect(bouncing.restingOffset == 300)
        #expect(bouncing.offset(at: bouncing.duration) == 300)
        #expect(stopping.offset(at: hit + 0.2) == 300)
        #expect(abs(stopping.duration - hit) < 1e-12)
    }

    @Test func aReleasePastTheEdgeSpringsBack() {
        let motion = ScrollAxisMotion.release(at: -60, velocity: 0, range: 0...300, rate: .normal, bounces: true, threshold: 0.25)
        // x(t) = -60 (1 + 10 t) e^(-10 t): at 0.1 s, -120 / e.
        #expect(abs(motion.offset(at: 0.1) + 120 / M_E) <= 0.5)
        #expect(motion.restingOffset == 0)
        #expect(
            ScrollAxisMotion.release(at: -60, velocity: 0, range: 0...300, rate: .normal, bounces: false, threshold: 0.25).isStill
        )
    }

    // MARK: Paging

    @Test func pagingFollowsThePositionWhenSlowAndTheVelocityWhenFast() {
        let range = 0.0...960.0  // four pages of 320
        func target(_ offset: Double, _ velocity: Double, from start: Double = 320) -> Double {
            Paging.target(offset: offset, velocity: velocity, dragStart: start, pageSize: 320, range: range, rate: .normal)
        }
        #expect(target(470, 0) == 320)  // not past the middle: back
        #expect(target(490, 0) == 640)  // past it: on
        #expect(target(200, 0) == 320)  // dragged back less than half a page: stays
        #expect(target(150, 0) == 0)  // more: the page before
        // 380 + 400 · 0.4995 = 579.8, nearer 640: a flick moves on although the finger is short of half.
        #expect(target(380, 400) == 640)
        #expect(target(300, -400) == 0)
        // However fast, one page from where the drag began.
        #expect(target(400, 20_000) == 640)
        #expect(target(900, 5000, from: 960) == 960)
    }
}
