#if canImport(Glibc)
import Glibc
#endif

/// A program's path, argv, envp and working directory as C strings, built once and shared by every spawn of it: the
/// spawning thread reads them while the loop goes on, so they live as long as any queued spawn holds them.
final class SpawnProgram {
    /// What a program is, for the runner's cache.
    struct Key: Hashable {
        var path: String
        var argv: [String]
        var environment: [String: String]
        /// nil keeps the runner's.
        var workingDirectory: String? = nil
    }

    let path: UnsafeMutablePointer<CChar>
    let arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    let variables: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    let workingDirectory: UnsafeMutablePointer<CChar>?
    private let argumentCount: Int
    private let variableCount: Int

    /// argv as given; envp as `NAME=value`, sorted by name.
    init(_ key: Key) {
        path = strdup(key.path)
        workingDirectory = key.workingDirectory.map { strdup($0) }
        argumentCount = key.argv.count + 1
        arguments = .allocate(capacity: argumentCount)
        for (index, argument) in key.argv.enumerated() { arguments[index] = strdup(argument) }
        arguments[key.argv.count] = nil
        let pairs = key.environment.sorted { $0.key < $1.key }
        variableCount = pairs.count + 1
        variables = .allocate(capacity: variableCount)
        for (index, pair) in pairs.enumerated() { variables[index] = strdup("\(pair.key)=\(pair.value)") }
        variables[pairs.count] = nil
    }

    deinit {
        for index in 0..<argumentCount { free(arguments[index]) }
        for index in 0..<variableCount { free(variables[index]) }
        arguments.deallocate()
        variables.deallocate()
        free(path)
        free(workingDirectory)
    }
}
