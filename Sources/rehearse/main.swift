import RehearseCommand

// The shipped `rehearse`: the command library with the shipped plugins and no others.
await RehearseCommand.main()
