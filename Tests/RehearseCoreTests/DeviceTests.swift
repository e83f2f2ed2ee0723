import Testing

@testable import RehearseCore

/// Device presets, inline devices and the safe area a scene has.
@Suite struct DeviceTests {
    /// The iPhone X's safe area as measured on iOS 11 (DevicePresets.swift [Q]): 375×734 from y 44 in
    /// portrait, 724×354 from x 44 in landscape; hiding the status bar leaves the sensor housing's 44.
    @Test func theNotchedIPhoneKeepsItsHousingInsetWithoutTheStatusBar() {
        let scene = Scene(device: .iPhoneX)
        #expect(scene.safeAreaFrame == Rect(x: 0, y: 44, width: 375, height: 734))
        scene.orientation = .landscapeRight
        #expect(scene.safeAreaFrame == Rect(x: 44, y: 0, width: 724, height: 354))
        scene.orientation = .portrait
        scene.statusBarHidden = true
        #expect(scene.safeAreaInsets == EdgeInsets(top: 44, left: 0, bottom: 34, right: 0))
    }

    /// On a home-button iPhone the top inset is only the status bar's: hidden, it is gone, and an
    /// iPhone hides it in landscape anyway (DevicePresets.swift [Y]); an iPad keeps it ([S]).
    @Test func aHomeButtonPhonesTopInsetIsItsStatusBar() {
        let phone = Scene(device: .iPhone8)
        #expect(phone.safeAreaInsets == EdgeInsets(top: 20, left: 0, bottom: 0, right: 0))
        phone.statusBarHidden = true
        #expect(phone.safeAreaInsets == .zero)
        phone.statusBarHidden = false
        phone.orientation = .landscapeLeft
        #expect(phone.safeAreaInsets == .zero)
        let pad = Scene(device: .iPad)
        pad.orientation = .landscapeLeft
        #expect(pad.safeAreaInsets.top == 20)
    }

    /// A view's own insets are the screen's less its distance from each edge, never below 0: a
    /// view 20 below the top of a screen with a 59-point inset has 39 (csl.cool, "iOS Layout
    /// Adaptation", measured safeAreaInsets of a subview); a view clear of the edges has none.
    @Test func aViewsInsetsAreWhatOfItTheScreensInsetsCover() throws {
        let device = try #require(
            Device(
                screen: Size(width: 393, height: 852), scale: 3, refreshRate: 120,
                portrait: OrientationMetrics(
                    keyboardHeight: 291, statusBarHeight: 59,
                    screenInsets: EdgeInsets(top: 59, left: 0, bottom: 34, right: 0)),
                landscape: OrientationMetrics(keyboardHeight: 183)))
        let scene = Scene(device: device)
        try scene.add(Node(id: "inner", kind: .view, frame: Rect(x: 0, y: 20, width: 393, height: 832)))
        try scene.add(Node(id: "middle", kind: .view, frame: Rect(x: 0, y: 100, width: 393, height: 400)))
        #expect(scene.safeAreaInsets(of: "inner") == EdgeInsets(top: 39, left: 0, bottom: 34, right: 0))
        #expect(scene.safeAreaInsets(of: "middle") == .zero)
        #expect(scene.safeAreaInsets(of: "nothing") == nil)
    }

    @Test func anInlineDeviceReadsItsOptionalStatusBarAndInsets() throws {
        let fields: Fields = [
            "width": 400, "height": 800, "hz": 90, "scale": 3, "keyboard": ["portrait": 300, "landscape": 200],
            "statusBar": ["portrait": 30, "landscape": 0],
            "insets": [
                "portrait": ["top": 40, "left": 0, "bottom": 30, "right": 0],
                "landscape": ["top": 0, "left": 40, "bottom": 20, "right": 40],
            ],
        ]
        let device = try Device(fields: fields)
        #expect(device.scale == 3 && device.refreshRate == 90)
        #expect(device.safeArea(in: .portrait, statusBarHidden: false) == EdgeInsets(top: 40, left: 0, bottom: 30, right: 0))
        #expect(
            device.safeArea(in: .landscapeLeft, statusBarHidden: false) == EdgeInsets(top: 0, left: 40, bottom: 20, right: 40))
        let plain = try Device(fields: ["width": 400, "height": 800, "hz": 60, "keyboard": ["portrait": 300, "landscape": 200]])
        #expect(plain.scale == 2)
        #expect(plain.safeArea(in: .portrait, statusBarHidden: false) == .zero)
        // Lists in the keys' order, as before devices had insets.
        let listed = try Device(fields: [
            "width": 400, "height": 800, "hz": 60, "keyboard": [300, 200],
            "insets": [[40, 0, 30, 0], [0, 40, 20, 40]],
        ])
        #expect(listed.keyboardHeight(in: .landscapeLeft) == 200)
        #expect(
            listed.safeArea(in: .landscapeLeft, statusBarHidden: false) == EdgeInsets(top: 0, left: 40, bottom: 20, right: 40))
    }

    private static let badDevices: [(extra: Fields, message: String)] = [
        (["statusBar": ["portrait": -1, "landscape": 0]], "status bar heights and insets of 0 or more"),
        (["scale": 9], "a scale from 1 to 4"),
        (["insets": ["portrait": ["top": 1, "left": 0, "bottom": 0, "right": 0]]], "insets.landscape"),
        (["statusBar": 20], "'statusBar' must be {portrait, landscape}"),
    ]

    @Test(arguments: badDevices)
    func aBadInlineDeviceIsRefusedNamingWhatIsWrong(extra: Fields, message: String) {
        var fields: Fields = ["width": 400, "height": 800, "hz": 60, "keyboard": ["portrait": 300, "landscape": 200]]
        fields.merge(extra) { $1 }
        #expect {
            try Device(fields: fields)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test func presetsHaveUniqueNamesEachFoundByItsName() {
        let names = Device.presetList.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(Device.presets.count == names.count)
        #expect(names.allSatisfy { Device.presets[$0]?.name == $0 })
        #expect(Device.presets["iphone-13-pro"]?.refreshRate == 120, "ProMotion")
    }
}
