extension Unicode.Scalar {
    /// Whether this is a control character (C0, DEL, C1): what ends a line, moves a terminal's
    /// cursor or starts an escape sequence, and which no name holds.
    package var isControlCharacter: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }
}
