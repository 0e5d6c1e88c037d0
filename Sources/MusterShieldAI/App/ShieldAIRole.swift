import MusterRuntime

/// The roles of ShieldAI's people: the customers whose documents and voice it protects.
package enum ShieldAIRole: String, AppRole {
    case customer
    package static var app: String { ShieldAIApp.appName }
}
