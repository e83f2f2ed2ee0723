extension FieldValue {
    /// The value as compact JSON with keys sorted, so that equal values always print the same.
    public var jsonText: String {
        var output = ""
        writeJSON(to: &output)
        return output
    }

    func writeJSON(to output: inout String) {
        switch self {
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .double(let value): output += value.isFinite ? String(value.withoutNegativeZero) : "null"
        case .string(let value): Self.writeJSONString(value, to: &output)
        case .array(let values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.writeJSON(to: &output)
            }
            output += "]"
        case .dictionary(let fields): Self.writeJSONObject(fields, to: &output)
        }
    }

    static func writeJSONObject(_ fields: Fields, to output: inout String) {
        output += "{"
        for (index, field) in fields.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { output += "," }
            writeJSONString(field.key, to: &output)
            output += ":"
            field.value.writeJSON(to: &output)
        }
        output += "}"
    }

    /// Writes `string` quoted, escaping by its UTF-8 bytes: the runs between escapes (all of a
    /// plain string) are appended whole. A byte below 0x80 is always a whole character, so the runs
    /// cut no character.
    static func writeJSONString(_ string: String, to output: inout String) {
        output += "\""
        let bytes = string.utf8
        var run = bytes.startIndex
        for index in bytes.indices {
            let escape: String
            switch bytes[index] {
            case UInt8(ascii: "\""): escape = "\\\""
            case UInt8(ascii: "\\"): escape = "\\\\"
            case UInt8(ascii: "\n"): escape = "\\n"
            case UInt8(ascii: "\r"): escape = "\\r"
            case UInt8(ascii: "\t"): escape = "\\t"
            case let byte where byte < 0x20:
                let hex = String(byte, radix: 16)
                escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: continue
            }
            output += string[run..<index]
            output += escape
            run = bytes.index(after: index)
        }
        output += string[run...]
        output += "\""
    }
}

extension DeliveredEvent {
    /// One line of a JSON Lines trace: `{"fields":{...},"name":"tap","seq":3,"time":0.5}`, keys
    /// sorted and the time exact to the nanosecond, so equal runs give equal bytes.
    public var traceLine: String {
        var output = "{\"fields\":"
        FieldValue.writeJSONObject(event.fields, to: &output)
        output += ",\"name\":"
        FieldValue.writeJSONString(event.name, to: &output)
        output += ",\"seq\":\(sequence),\"time\":\(time)}"
        return output
    }
}
