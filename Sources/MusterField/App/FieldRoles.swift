/// The roles of the field app's people.
public enum FieldRoles {
    public static let worker = "worker", manager = "manager"
    public static let all: Set<String> = [worker, manager]
}
