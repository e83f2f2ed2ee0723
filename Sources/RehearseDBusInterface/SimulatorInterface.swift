/// The names of the interface, as the design fixes them.
public enum SimulatorInterface {
    public static let defaultName = "org.rehearse.Simulator"
    public static let path = "/org/rehearse/Simulator"
    public static let interface = "org.rehearse.Simulator1"
}
