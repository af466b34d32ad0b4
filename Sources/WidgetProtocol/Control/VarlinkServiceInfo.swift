/// The reply of `org.varlink.service.GetInfo`: who serves the socket and which interfaces it implements.
public struct VarlinkServiceInfo: Sendable, Hashable, Codable {
    public var vendor: String
    public var product: String
    public var version: String
    public var url: String
    public var interfaces: [String]

    public init(vendor: String, product: String, version: String, url: String, interfaces: [String]) {
        self.vendor = vendor
        self.product = product
        self.version = version
        self.url = url
        self.interfaces = interfaces
    }

    /// The service interface's own description, served for `GetInterfaceDescription("org.varlink.service")`.
    public static let serviceDescription = """
        # The Varlink service interface
        interface org.varlink.service

        # Get a list of all the interfaces a service provides and information about the implementation.
        method GetInfo() -> (vendor: string, product: string, version: string, url: string, interfaces: []string)

        # Get the description of an interface that is implemented by this service.
        method GetInterfaceDescription(interface: string) -> (description: string)

        # The requested interface was not found.
        error InterfaceNotFound (interface: string)

        # The requested method was not found
        error MethodNotFound (method: string)

        # The interface defines the requested method, but the service does not implement it.
        error MethodNotImplemented (method: string)

        # One of the passed parameters is invalid.
        error InvalidParameter (parameter: string)

        # Client is denied access
        error PermissionDenied ()

        # Method is expected to be called with 'more' set to true, but wasn't
        error ExpectedMore ()

        """
}
