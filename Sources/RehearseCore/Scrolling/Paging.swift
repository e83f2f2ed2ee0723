/// Where a scroll view with `pagingEnabled` settles when released: the page boundary nearest to
/// the point the release would carry it to, as WWDC18 "Designing Fluid Interfaces" chooses a
/// target (project the release velocity with the deceleration rate, then take the nearest
/// target), and at most one page from the page the drag began on, as UIScrollView moves one page
/// per swipe. Pages are `pageSize` apart from offset 0; the last page is the end of the range.
public enum Paging {
    /// The rate a page is settled on with, whatever the view's `decelerationRate` (Rehearse's:
    /// UIKit's paging animation is private; `fast`, 0.99, settles a half-page move in about 0.7 s,
    /// where `normal` would take 3 s).
    public static let settlingRate = DecelerationRate.fast

    /// The offset of the page to settle on. `offset` and `velocity` (points per second) are the
    /// release's, `dragStart` the offset where the drag began, `range` the scrollable offsets.
    public static func target(
        offset: Double, velocity: Double, dragStart: Double, pageSize: Double,
        range: ClosedRange<Double>, rate: DecelerationRate
    ) -> Double {
        guard pageSize > 0 else { return min(max(offset, range.lowerBound), range.upperBound) }
        let projected = Deceleration(start: offset, velocity: velocity, rate: rate).restingOffset
        let startPage = (dragStart / pageSize).rounded()
        let lastPage = (range.upperBound / pageSize).rounded(.up)
        let page = min(max((projected / pageSize).rounded(), startPage - 1, 0), startPage + 1, lastPage)
        return min(max(page * pageSize, range.lowerBound), range.upperBound)
    }
}
