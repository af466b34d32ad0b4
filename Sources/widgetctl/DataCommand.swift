import ArgumentParser

struct DataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "data",
        abstract: "Read and write a group's shared data, as App Groups do for an app and its widgets.",
        subcommands: [DataSetCommand.self, DataGetCommand.self, DataListCommand.self, DataDeleteCommand.self]
    )
}
