import RehearseCommand
import RehearseCore
import ShakeDetector

// `shake-rehearse run Scenarios/`, `shake-rehearse serve`, ...: the shipped plugins and ours.
await RehearseCommand.main(plugins: [PluginDescriptor(ShakeDetector.self)])
