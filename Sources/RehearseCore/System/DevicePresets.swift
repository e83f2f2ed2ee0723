// The shipped devices. Every number names where it comes from:
//  [A]  Apple, iOS Device Compatibility Reference, Displays, Table 2-1 (points and scale):
//       developer.apple.com/library/archive/documentation/DeviceInformation/Reference/iOSDeviceCompatibility/Displays/Displays.html
//  [S]  pointfreeco/swift-snapshot-testing, Sources/SnapshotTesting/Common/View.swift (ViewImageConfig:
//       each device's size and safe area per orientation, as its snapshots are laid out)
//  [Y]  useyourloaf.com/blog/supporting-iphone-x: the iPhone 8's 20-point status bar, hidden in
//       landscape; the iPhone X's 44-point insets on both sides in landscape, 34 at the bottom in portrait
//  [Q]  qiita.com/usagimaru/items/761e9a5f3d78b1939df8: the iPhone X's safe area measured on iOS 11:
//       375×734 in portrait (top 44, bottom 34), 724×354 in landscape (44 each side, bottom 21)
//  [K]  github.com/zoul/ios-keyboards, README (measured screenshots, no predictive bar): iPhone 5
//       and iPhone 6 keyboards 216 points in portrait, 162 in landscape
//  [L]  stackoverflow.com/questions/19482573, "UIKeyboardWillChangeFrameNotification
//       UIViewAnimationCurve set to 7 on iOS 7", an iOS 7 keyboard notification log: FrameEnd
//       {{0, 264}, {320, 216}}
//  [X]  cubalevski/ToDoAppIniOS-master, ToDoPro/Model/KeyboardHeightManager.swift: the iPhone X
//       (2436 pixels high) keyboard 291 points, no predictive bar
//  [R]  openradar 38117524 (lionheart/openradar-mirror#19513), a keyboardWillShow log on a
//       768×1024 iPad: {0, 1024, 768, 313} in portrait, {0, 768, 1024, 398} in landscape
//  [P]  Apple, iPhone 13 Pro technical specifications (support.apple.com/kb/SP852): 2532×1170
//       pixels at 3×, ProMotion with adaptive refresh rates up to 120 Hz
//  [D]  Derived, not measured (no published figure was found): a notched iPhone's landscape
//       keyboard as the home-button iPhones' 162 [K] plus the 21-point home indicator [Q], which is
//       where the keyboard's extra height on those phones comes from ("the view that contains the
//       letters is always of the same size; the difference comes from the bottom safe area",
//       F. Benacquista, "List of the official iOS keyboards' heights", Medium).

extension Device {
    /// The iPhone 5 of the originals' era: 320×568 points at 2× [A], 60 Hz; keyboard 216 in portrait
    /// [L, K] and 162 in landscape [K]; a 20-point status bar in portrait, none in landscape [S].
    public static let iPhone5 = Device(
        name: "iphone-5", screen: Size(width: 320, height: 568), scale: 2, refreshRate: 60,
        portrait: OrientationMetrics(keyboardHeight: 216, statusBarHeight: 20),
        landscape: OrientationMetrics(keyboardHeight: 162))!

    /// A 4.7-inch iPhone (6, 7, 8, SE 2): 375×667 points at 2× [A], 60 Hz; keyboard 216 in
    /// portrait and 162 in landscape [K]; a 20-point status bar in portrait, hidden in landscape,
    /// no side insets [Y, S].
    public static let iPhone8 = Device(
        name: "iphone-8", screen: Size(width: 375, height: 667), scale: 2, refreshRate: 60,
        portrait: OrientationMetrics(keyboardHeight: 216, statusBarHeight: 20),
        landscape: OrientationMetrics(keyboardHeight: 162))!

    /// The notched iPhone X with its home indicator: 375×812 points at 3× [A], 60 Hz; in portrait
    /// a 44-point status bar in the sensor housing's inset and 34 at the bottom [Y, Q, S], keyboard
    /// 291 [X]; in landscape 44 on each side and 21 at the bottom [Q] (swift-snapshot-testing has
    /// 24 [S]; the measured 21 is used), no status bar [Y], keyboard 183 [D].
    public static let iPhoneX = Device(
        name: "iphone-x", screen: Size(width: 375, height: 812), scale: 3, refreshRate: 60,
        portrait: OrientationMetrics(
            keyboardHeight: 291, statusBarHeight: 44,
            screenInsets: EdgeInsets(top: 44, left: 0, bottom: 34, right: 0)),
        landscape: OrientationMetrics(
            keyboardHeight: 183,
            screenInsets: EdgeInsets(top: 0, left: 44, bottom: 21, right: 44)))!

    /// A ProMotion iPhone 13 Pro: 390×844 points at 3×, 120 Hz [P]; in portrait 47 at the top and
    /// 34 at the bottom, in landscape 47 on each side and 21 at the bottom [S]; the keyboard as on
    /// the iPhone X, whose keys and bottom row are the same height (291 [X], landscape 183 [D]).
    public static let iPhone13Pro = Device(
        name: "iphone-13-pro", screen: Size(width: 390, height: 844), scale: 3, refreshRate: 120,
        portrait: OrientationMetrics(
            keyboardHeight: 291, statusBarHeight: 47,
            screenInsets: EdgeInsets(top: 47, left: 0, bottom: 34, right: 0)),
        landscape: OrientationMetrics(
            keyboardHeight: 183,
            screenInsets: EdgeInsets(top: 0, left: 47, bottom: 21, right: 47)))!

    /// A 9.7-inch iPad (Air 2, mini 4, Pro 9.7): 768×1024 points at 2× [A], 60 Hz; a 20-point status
    /// bar in both orientations, no other insets [S]; keyboard 313 in portrait and 398 in
    /// landscape, with its predictive bar [R].
    public static let iPad = Device(
        name: "ipad", screen: Size(width: 768, height: 1024), scale: 2, refreshRate: 60,
        portrait: OrientationMetrics(keyboardHeight: 313, statusBarHeight: 20),
        landscape: OrientationMetrics(keyboardHeight: 398, statusBarHeight: 20))!

    /// The shipped presets, in the order `rehearse devices` lists them.
    public static let presetList: [Device] = [iPhone5, iPhone8, iPhoneX, iPhone13Pro, iPad]

    /// The shipped presets by name.
    public static let presets: [String: Device] = Dictionary(uniqueKeysWithValues: presetList.map { ($0.name, $0) })
}
