import CDBus

/// libdbus's type codes: its `DBUS_TYPE_*` macros are `((int) 'c')`, which Swift does not import.
enum DBusType {
    static let invalid: Int32 = 0
    static let byte = Int32(UInt8(ascii: "y"))
    static let boolean = Int32(UInt8(ascii: "b"))
    static let int16 = Int32(UInt8(ascii: "n"))
    static let uint16 = Int32(UInt8(ascii: "q"))
    static let int32 = Int32(UInt8(ascii: "i"))
    static let uint32 = Int32(UInt8(ascii: "u"))
    static let int64 = Int32(UInt8(ascii: "x"))
    static let uint64 = Int32(UInt8(ascii: "t"))
    static let double = Int32(UInt8(ascii: "d"))
    static let string = Int32(UInt8(ascii: "s"))
    static let objectPath = Int32(UInt8(ascii: "o"))
    static let signature = Int32(UInt8(ascii: "g"))
    static let array = Int32(UInt8(ascii: "a"))
    static let variant = Int32(UInt8(ascii: "v"))
    static let `struct` = Int32(UInt8(ascii: "r"))
    static let dictEntry = Int32(UInt8(ascii: "e"))
    static let unixFD = Int32(UInt8(ascii: "h"))
}

/// The names of the interface, as the design fixes them.
public enum SimulatorInterface {
    public static let defaultName = "org.rehearse.Simulator"
    public static let path = "/org/rehearse/Simulator"
    public static let interface = "org.rehearse.Simulator1"
}
