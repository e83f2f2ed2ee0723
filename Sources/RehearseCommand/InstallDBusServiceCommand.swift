import ArgumentParser
import Foundation
import RehearseDBusInterface
import RehearseScenario

/// `rehearse install-dbus-service`: a session bus activation file, so that the first call to the
/// name starts `rehearse serve` with these options.
struct InstallDBusService: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install-dbus-service",
        abstract: "Write a D-Bus activation file so that the session bus starts `rehearse serve` on the first call.",
        discussion: """
            Writes $XDG_DATA_HOME/dbus-1/services/NAME.service (XDG_DATA_HOME defaults to ~/.local/share), \\
            running this rehearse with the serve options given. A bus daemon reads its service folders when it \\
            starts (and on reload: busctl --user call org.freedesktop.DBus / org.freedesktop.DBus ReloadConfig).
            """)

    @Option(help: "The simulator's well-known name.")
    var name = SimulatorInterface.defaultName

    @OptionGroup var setup: ServeSetupOptions

    @Flag(help: "Print the file instead of writing it.")
    var print = false

    @Flag(help: "Replace an existing NAME.service that says something else (without it, it is kept and nothing written).")
    var force = false

    func validate() throws {
        var values = [("--name", name), ("--scenario", setup.scenario ?? ""), ("--device", setup.device ?? "")]
        values += setup.plugins.map { ("--plugins", $0) }
        for (option, value) in values {
            if let character = value.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
                throw ValidationError(
                    "\(option) '\(TerminalText.escape(value))' holds a control character "
                        + "(U+\(String(format: "%04X", character.value))), which an activation file cannot hold")
            }
        }
        try BusName.check(name)
    }

    func run() throws {
        _ = try setup.loadSetup()  // an invalid setup is refused now, not at the first call
        let executable = URL(filePath: "/proc/self/exe").resolvingSymlinksInPath().path
        guard !executable.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ValidationError(
                "this rehearse's path holds a control character, which an activation file cannot hold: "
                    + TerminalText.escape(executable))
        }
        let command = [executable, "serve", "--name", name] + setup.arguments
        let text = "[D-BUS Service]\nName=\(name)\nExec=\(command.map(Self.quoted).joined(separator: " "))\n"
        guard !print else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        let data = Data(text.utf8)
        let file = "\(name).service"
        let result = Result { () throws(OutputError) -> String? in
            let folder = try OutputFolder(creating: Self.servicesFolder.path)
            guard folder.contents(of: file, limit: data.count) != data else { return nil }
            return try folder.write(data, to: file, existing: force ? .atomically : .never)
        }
        switch result {
        case .success(let path?):
            FileHandle.standardOutput.write(Data("wrote \(path)\n".utf8))
        case .success(nil):
            FileHandle.standardOutput.write(Data("unchanged \(Self.servicesFolder.appending(path: file).path)\n".utf8))
        case .failure(.exists(let path)):
            let message = "\(path) exists and says something else; kept it (--force replaces it, --print shows the new one)"
            FileHandle.standardError.write(Data("rehearse install-dbus-service: \(message)\n".utf8))
            throw ExitCode(2)
        case .failure(let error):
            FileHandle.standardError.write(Data("rehearse install-dbus-service: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }

    /// `$XDG_DATA_HOME/dbus-1/services`, where a session bus looks for activation files. As the XDG
    /// Base Directory specification says, a relative (or empty) `XDG_DATA_HOME` is ignored for
    /// `$HOME/.local/share` (the account's home folder when `HOME` is not absolute either).
    static var servicesFolder: URL {
        let environment = ProcessInfo.processInfo.environment
        func absolute(_ name: String) -> URL? { environment[name].flatMap { $0.hasPrefix("/") ? URL(filePath: $0) : nil } }
        let data =
            absolute("XDG_DATA_HOME")
            ?? (absolute("HOME") ?? FileManager.default.homeDirectoryForCurrentUser).appending(path: ".local/share")
        return data.appending(path: "dbus-1/services")
    }

    /// An argument as the bus daemon's Exec line reads it (shell-like quoting).
    static func quoted(_ argument: String) -> String {
        guard argument.isEmpty || argument.contains(where: { !($0.isLetter || $0.isNumber || "/._-=:,".contains($0)) }) else {
            return argument
        }
        return "'" + argument.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
