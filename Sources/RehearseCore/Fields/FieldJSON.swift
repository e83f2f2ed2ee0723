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
        case .double(let value): output += value.isFinite ? String(value) : "null"
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
        for (index, key) in fields.keys.sorted().enumerated() {
            if index > 0 { output += "," }
            writeJSONString(key, to: &output)
            output += ":"
            fields[key]?.writeJSON(to: &output)
        }
        output += "}"
    }

    static func writeJSONString(_ string: String, to output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
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
