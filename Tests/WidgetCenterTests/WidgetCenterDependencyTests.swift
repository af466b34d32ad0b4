import Foundation
import Testing
import WidgetSchedulerTestKit

/// The package's root, found from this file's path.
private let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The package manifest as `swift package dump-package` reads it. A scratch directory of its own keeps it off the
/// build directory's lock, which the running `swift test` holds.
private func dumpPackage() throws -> [String: Any] {
    let searchPath = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
    guard let swift = (searchPath + ["/opt/swift/usr/bin"]).map({ $0 + "/swift" })
        .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    else {
        throw DumpFailure(description: "no swift executable on PATH or in /opt/swift/usr/bin")
    }
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dump-package-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let dump = try ChildProcess.capture(
        [swift, "package", "--package-path", packageRoot.path, "--scratch-path", scratch.path, "dump-package"],
        environment: ProcessInfo.processInfo.environment)
    guard dump.status == 0, let manifest = try JSONSerialization.jsonObject(with: Data(dump.output)) as? [String: Any]
    else {
        throw DumpFailure(description: "swift package dump-package exited \(dump.status)")
    }
    return manifest
}

private struct DumpFailure: Error, CustomStringConvertible {
    var description: String
}

/// Every target `name` depends on, directly or not, and the products of other packages among them.
private func closure(of name: String, in manifest: [String: Any]) -> (targets: Set<String>, products: Set<String>) {
    let targets = (manifest["targets"] as? [[String: Any]] ?? [])
    var dependencies: [String: [[String: Any]]] = [:]
    for target in targets {
        if let name = target["name"] as? String {
            dependencies[name] = target["dependencies"] as? [[String: Any]] ?? []
        }
    }
    var seen: Set<String> = [], products: Set<String> = [], queue = [name]
    while let next = queue.popLast() {
        guard seen.insert(next).inserted else { continue }
        for dependency in dependencies[next] ?? [] {
            // Each dependency is {"byName": [name, condition]}, {"target": [...]} or {"product": [name, package, ...]}.
            if let product = dependency["product"] as? [Any], let productName = product.first as? String {
                products.insert(productName)
            } else if let reference = (dependency["byName"] ?? dependency["target"]) as? [Any],
                      let target = reference.first as? String {
                if dependencies[target] != nil { queue.append(target) } else { products.insert(target) }
            }
        }
    }
    return (seen, products)
}

@Suite struct WidgetCenterDependencyTests {
    @Test func anAppLinksOnlyTheWireTypesAndTheClientNothingOfTheDaemon() throws {
        let manifest = try dumpPackage()
        let (targets, products) = closure(of: "WidgetCenter", in: manifest)
        // WidgetProtocol carries the pure core's value types (dates, decisions) on the wire; nothing with I/O,
        // state, the journal or the provider runner comes in.
        #expect(targets == ["WidgetCenter", "WidgetControlClient", "WidgetProtocol", "WidgetSchedulerCore"])
        #expect(products == ["HeapModule"])
        let library = (manifest["products"] as? [[String: Any]] ?? []).first { $0["name"] as? String == "WidgetCenter" }
        #expect(library?["targets"] as? [String] == ["WidgetCenter"])
    }

    @Test func widgetctlAndAppsShareOneClient() throws {
        let manifest = try dumpPackage()
        #expect(closure(of: "widgetctl", in: manifest).targets.contains("WidgetControlClient"))
        #expect(closure(of: "WidgetControlClient", in: manifest).targets
            == ["WidgetControlClient", "WidgetProtocol", "WidgetSchedulerCore"])
    }
}
