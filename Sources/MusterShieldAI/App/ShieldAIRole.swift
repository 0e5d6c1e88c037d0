public import MusterRuntime

/// The roles of ShieldAI's people: the customers whose documents and voice it protects.
public enum ShieldAIRole: String, AppRole {
    case customer
    public static var app: String { ShieldAIApp.appName }
}
