import ArgumentParser
import Foundation
import RehearseDBus

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

    func validate() throws {
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }),
              !name.hasPrefix("."), name.contains(".")
        else {
            throw ValidationError("'\(name)' is not a well-known bus name (letters, digits, '_', '-', dot-separated)")
        }
    }

    func run() throws {
        _ = try setup.loadSetup()  // an invalid setup is refused now, not at the first call
        let executable = URL(filePath: "/proc/self/exe").resolvingSymlinksInPath().path
        let command = [executable, "serve", "--name", name] + setup.arguments
        let text = "[D-BUS Service]\nName=\(name)\nExec=\(command.map(Self.quoted).joined(separator: " "))\n"
        guard !print else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        let folder = Self.servicesFolder
        let file = folder.appending(path: "\(name).service")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file, options: .atomic)
        } catch {
            FileHandle.standardError.write(Data("rehearse install-dbus-service: cannot write \(file.path): \(error.localizedDescription)\n".utf8))
            throw ExitCode(2)
        }
        FileHandle.standardOutput.write(Data("wrote \(file.path)\n".utf8))
    }

    /// `$XDG_DATA_HOME/dbus-1/services`, where a session bus looks for activation files.
    static var servicesFolder: URL {
        let environment = ProcessInfo.processInfo.environment
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? URL(filePath: $0) : nil }
            ?? FileManager.default.homeDirectoryForCurrentUser.appending(path: ".local/share")
        return data.appending(path: "dbus-1/services")
    }

    /// An argument as the bus daemon's Exec line reads it (shell-like quoting).
    static func quoted(_ argument: String) -> String {
        guard argument.isEmpty || argument.contains(where: { !($0.isLetter || $0.isNumber || "/._-=:,".contains($0)) }) else { return argument }
        return "'" + argument.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
