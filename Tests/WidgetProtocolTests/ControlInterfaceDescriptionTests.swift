import Foundation
import Testing
import WidgetProtocol

@Suite struct ControlInterfaceDescriptionTests {
    private static var docsFile: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/io.widgetscheduler.Scheduler.varlink")
    }

    @Test func docsFileEqualsTheServedDescription() throws {
        let file = try String(contentsOf: Self.docsFile, encoding: .utf8)
        #expect(file == ControlInterface.description)
    }

    @Test func descriptionNamesTheInterfaceFirst() throws {
        let firstStatement = ControlInterface.description.split(separator: "\n").first { !$0.hasPrefix("#") }
        #expect(firstStatement.map(String.init) == "interface " + ControlInterface.name)
    }

    @Test(arguments: ControlMethod.allCases)
    func descriptionDeclaresEveryMethod(method: ControlMethod) {
        #expect(ControlInterface.description.contains("\nmethod \(method.rawValue)("))
    }

    @Test(arguments: [
        ControlError.Name.unknownKind, ControlError.Name.unknownWidget, ControlError.Name.unknownKey,
        ControlError.Name.permissionDenied, ControlError.Name.providerFailed, ControlError.Name.invalidMessage,
        ControlError.Name.tooManyConnections, ControlError.Name.connectionTimedOut, ControlError.Name.bufferFull,
        ControlError.Name.rateLimited, ControlError.Name.daemonStopping, ControlError.Name.stateNotWritten,
        ControlError.Name.noSuchImage,
    ])
    func descriptionDeclaresEveryInterfaceError(name: String) {
        let short = String(name.dropFirst(ControlInterface.name.count + 1))
        #expect(ControlInterface.description.contains("\nerror \(short) ("))
    }
}
