import RehearseCore

/// The original's screen (`SCImagePanViewController.m`): a full-screen scroll view holding an
/// aspect-fit image view with the scroll view's bounds, and over them the scroll bar layer inset
/// by (top 0, left 10, bottom 50, right 10), its line drawn along its bottom edge. The image is an
/// accessibility element labelled `Photo` with the `image` trait.
enum PhotoPannerScene {
    static let scrollBarInsets = EdgeInsets(top: 0, left: 10, bottom: 50, right: 10)

    static let preset = ScenePreset(
        name: "photo-panner",
        summary: "a full-screen scroll view with a wide image and a scroll bar along the bottom"
    ) { scene in
        let bounds = scene.bounds
        try scene.add(Node(id: "scroll", kind: .scrollView, frame: bounds))
        var image = Node(id: "image", kind: .imageView, frame: bounds)
        image.accessibilityLabel = "Photo"
        image.accessibilityTraits = .image
        image.isAccessibilityElement = true
        try scene.add(image, to: "scroll")
        let insets = scrollBarInsets
        var bar = Node(
            id: "scrollBar", kind: .shape,
            frame: Rect(
                x: insets.left, y: insets.top, width: bounds.size.width - insets.left - insets.right,
                height: bounds.size.height - insets.top - insets.bottom))
        bar.strokeStart = 0
        bar.strokeEnd = 1
        try scene.add(bar)
    }
}
