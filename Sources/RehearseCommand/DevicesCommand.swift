import ArgumentParser
import RehearseCore

/// `rehearse devices`: the device presets a scenario's `device:` can name.
struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the device presets: screen, scale, refresh rate, keyboard heights and safe areas in both orientations.",
        discussion: """
            Safe-area insets are top, left, bottom, right with the status bar showing (a scenario's statusBar.hidden \
            takes away the part that is only the status bar). Where each number comes from: \
            Sources/RehearseCore/System/DevicePresets.swift. A scenario can also give its own device: \
            {width, height, hz, keyboard: {portrait, landscape}} with optional scale, statusBar and insets.
            """)

    func run() {
        for device in Device.presetList {
            print(Self.describe(device))
        }
    }

    /// One device in three lines: its name and screen, then each orientation.
    static func describe(_ device: Device) -> String {
        let screen =
            "\(device.screen.width.shortDescription)×\(device.screen.height.shortDescription) points @\(device.scale)x, "
            + "\(device.refreshRate) Hz"
        let orientations = [("portrait", Orientation.portrait), ("landscape", Orientation.landscapeLeft)].map {
            label, orientation in
            let insets = device.safeArea(in: orientation, statusBarHidden: false)
            let safe = zip(["top", "left", "bottom", "right"], [insets.top, insets.left, insets.bottom, insets.right])
                .map { "\($0) \($1.shortDescription)" }.joined(separator: " ")
            return "  \(label): keyboard \(device.keyboardHeight(in: orientation).shortDescription), safe area \(safe)"
        }
        return ([device.name.padding(toLength: 15, withPad: " ", startingAt: 0) + screen] + orientations).joined(separator: "\n")
    }
}
