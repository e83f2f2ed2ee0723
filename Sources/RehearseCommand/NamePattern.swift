import ArgumentParser

/// A `run --filter` pattern, matched against a scenario's name and its path anywhere in them (as
/// `swift test --filter` and `jest -t` do): a regular expression, so that a plain word is a
/// substring, with what extended regular expressions have (`.`, `[a-z]`, `[^/]`, `\d`, `\w`, `\s`,
/// `^`, `$`, `(...)`, `|`, `*`, `+`, `?`, `{m,n}`), case-sensitive. A pattern that is not one
/// (`login(`) is matched as plain text. Matching takes time linear in the name (a Pike machine,
/// running every thread of the pattern at once, never backtracking), so that `(a+)+$` cannot hang
/// a run: at most ``maximumInstructions`` steps per character of at most ``matchedCharacters``.
struct NamePattern: CustomStringConvertible {
    /// The longest pattern, in characters.
    static let maximumLength = 200
    /// The most instructions a pattern compiles to (`{m,n}` repeats what it bounds): past it, the
    /// pattern is refused.
    static let maximumInstructions = 1_000
    /// How many characters (Unicode scalars) of a name or path are matched: a path is at most 4,096
    /// bytes on Linux (PATH_MAX); a name longer than that is matched on its beginning, where `$`
    /// does not match.
    static let matchedCharacters = 4_096

    /// The pattern as given.
    let description: String
    /// The compiled expression; nil when the pattern is matched as plain text.
    private let program: Program?

    /// Whether the pattern is matched as a regular expression (not as plain text).
    var isRegularExpression: Bool { program != nil }

    /// Refuses an empty pattern, one over ``maximumLength`` characters, and an expression that
    /// compiles to more than ``maximumInstructions`` instructions.
    init(_ text: String) throws(ValidationError) {
        guard (1...Self.maximumLength).contains(text.unicodeScalars.count) else {
            throw ValidationError("--filter takes a pattern of 1 to \(Self.maximumLength) characters")
        }
        description = text
        do {
            var parser = Parser(Array(text.unicodeScalars))
            program = try Compiler.compile(parser.parse())
        } catch .tooLarge {
            throw ValidationError(
                "--filter \(text): the expression repeats too much (more than \(Self.maximumInstructions) "
                    + "instructions once its {m,n} are written out)")
        } catch {
            program = nil
        }
    }

    /// Whether the pattern occurs in `subject`.
    func matches(_ subject: String) -> Bool {
        guard let program else { return subject.contains(description) }
        let scalars = subject.unicodeScalars
        return Machine(
            program: program.instructions, sets: program.sets, input: Array(scalars.prefix(Self.matchedCharacters)),
            cut: scalars.count > Self.matchedCharacters
        ).run()
    }
}

extension NamePattern {
    /// The compiled expression: its instructions, and the sets of characters they read.
    fileprivate struct Program {
        var instructions: [Instruction] = []
        var sets: [ScalarSet] = []
    }

    /// One step of the compiled expression (no reference inside: the machine copies them often).
    fileprivate enum Instruction {
        /// Reads a character of ``Program/sets``[index].
        case scalar(Int)
        case start, end
        /// Continue at both.
        case split(Int, Int)
        case jump(Int)
        case match
    }

    /// Characters by ranges of code points, or all but them.
    fileprivate struct ScalarSet {
        var ranges: [ClosedRange<UInt32>] = []
        var negated = false

        func contains(_ scalar: Unicode.Scalar) -> Bool {
            ranges.contains { $0.contains(scalar.value) } != negated
        }

        static let any = ScalarSet(negated: true)
        /// `\d`, `\w` and `\s` (ASCII digits, word characters and white space), and as capitals all but them.
        static let classes: [Unicode.Scalar: ScalarSet] = {
            let sets: [Unicode.Scalar: [ClosedRange<UInt32>]] = [
                "d": [48...57], "w": [48...57, 65...90, 95...95, 97...122],
                "s": [9...13, 32...32],
            ]
            var classes: [Unicode.Scalar: ScalarSet] = [:]
            for (letter, ranges) in sets {
                classes[letter] = ScalarSet(ranges: ranges)
                classes[Unicode.Scalar(letter.value - 32)!] = ScalarSet(ranges: ranges, negated: true)
            }
            return classes
        }()
    }

    /// The expression as a tree.
    fileprivate indirect enum Node {
        case scalar(ScalarSet)
        case start, end
        case sequence([Node])
        case either([Node])
        case repeated(Node, minimum: Int, maximum: Int?)
    }

    fileprivate enum PatternError: Error {
        /// Not an expression: the pattern is plain text.
        case syntax
        /// Past ``NamePattern/maximumInstructions``.
        case tooLarge
    }

    /// Reads the expression: `either := sequence ('|' sequence)*`, `sequence := (atom quantifier?)*`.
    fileprivate struct Parser {
        private let scalars: [Unicode.Scalar]
        private var position = 0
        /// The largest count in `{m,n}`.
        private static let maximumCount = 1_000

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        mutating func parse() throws(PatternError) -> Node {
            let node = try either()
            guard position == scalars.count else { throw .syntax }
            return node
        }

        private var next: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

        private mutating func take(_ scalar: Unicode.Scalar) -> Bool {
            guard next == scalar else { return false }
            position += 1
            return true
        }

        private mutating func either() throws(PatternError) -> Node {
            var branches = [try sequence()]
            while take("|") { branches.append(try sequence()) }
            return branches.count == 1 ? branches[0] : .either(branches)
        }

        private mutating func sequence() throws(PatternError) -> Node {
            var items: [Node] = []
            while let scalar = next, scalar != "|", scalar != ")" {
                items.append(try quantified(atom()))
            }
            return .sequence(items)
        }

        private mutating func quantified(_ atom: Node) throws(PatternError) -> Node {
            let bounds: (Int, Int?)
            if take("*") {
                bounds = (0, nil)
            } else if take("+") {
                bounds = (1, nil)
            } else if take("?") {
                bounds = (0, 1)
            } else if take("{") {
                bounds = try counts()
            } else {
                return atom
            }
            _ = take("?")  // lazy: the same matches
            if let scalar = next, "*+?{".unicodeScalars.contains(scalar) { throw .syntax }
            return .repeated(atom, minimum: bounds.0, maximum: bounds.1)
        }

        /// `m}`, `m,}` or `m,n}`, after `{`.
        private mutating func counts() throws(PatternError) -> (Int, Int?) {
            let minimum = try number()
            var maximum: Int? = minimum
            if take(",") { maximum = next == "}" ? nil : try number() }
            guard take("}"), maximum.map({ $0 >= minimum }) ?? true else { throw .syntax }
            return (minimum, maximum)
        }

        private mutating func number() throws(PatternError) -> Int {
            var value = 0
            var digits = 0
            while let scalar = next, let digit = Int(String(scalar)), digits < 5 {
                value = value * 10 + digit
                digits += 1
                position += 1
            }
            guard digits > 0, value <= Self.maximumCount else { throw .syntax }
            return value
        }

        private mutating func atom() throws(PatternError) -> Node {
            guard let scalar = next else { throw .syntax }
            position += 1
            switch scalar {
            case "(":
                if take("?") { guard take(":") else { throw .syntax } }
                let inner = try either()
                guard take(")") else { throw .syntax }
                return inner
            case "[": return .scalar(try bracket())
            case ".": return .scalar(.any)
            case "^": return .start
            case "$": return .end
            case "\\": return .scalar(try escaped())
            case "*", "+", "?", "{": throw .syntax
            default: return .scalar(ScalarSet(ranges: [scalar.value...scalar.value]))
            }
        }

        /// After `\`: a class (``ScalarSet/classes``) or the character itself when it is not a
        /// letter or digit.
        private mutating func escaped() throws(PatternError) -> ScalarSet {
            guard let scalar = next else { throw .syntax }
            position += 1
            if let set = ScalarSet.classes[scalar] { return set }
            guard !scalar.properties.isAlphabetic, !("0"..."9").contains(scalar) else { throw .syntax }
            return ScalarSet(ranges: [scalar.value...scalar.value])
        }

        /// `[...]` after `[`: characters, ranges (`a-z`) and `\d`, `\w`, `\s`; `^` first for all but
        /// them; `]` first or escaped as itself.
        private mutating func bracket() throws(PatternError) -> ScalarSet {
            var set = ScalarSet(negated: take("^"))
            var first = true
            while let scalar = next, scalar != "]" || first {
                first = false
                position += 1
                var low = scalar
                if scalar == "\\" {
                    guard let escapedScalar = next else { throw .syntax }
                    position += 1
                    if let inner = ScalarSet.classes[escapedScalar] {
                        guard !inner.negated else { throw .syntax }
                        set.ranges += inner.ranges
                        continue
                    }
                    low = escapedScalar
                }
                var high = low
                if next == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                    position += 1
                    high = scalars[position]
                    position += 1
                    guard high.value >= low.value else { throw .syntax }
                }
                set.ranges.append(low.value...high.value)
            }
            guard take("]") else { throw .syntax }
            return set
        }
    }

    /// Writes the tree out as instructions.
    fileprivate struct Compiler {
        private var program: [Instruction] = []
        private var sets: [ScalarSet] = []

        static func compile(_ node: Node) throws(PatternError) -> Program {
            var compiler = Compiler()
            try compiler.emit(node)
            try compiler.append(.match)
            return Program(instructions: compiler.program, sets: compiler.sets)
        }

        private mutating func append(_ instruction: Instruction) throws(PatternError) {
            guard program.count < NamePattern.maximumInstructions else { throw .tooLarge }
            program.append(instruction)
        }

        private mutating func emit(_ node: Node) throws(PatternError) {
            switch node {
            case .scalar(let set):
                try append(.scalar(sets.count))
                sets.append(set)
            case .start: try append(.start)
            case .end: try append(.end)
            case .sequence(let items):
                for item in items { try emit(item) }
            case .either(let branches):
                var jumps: [Int] = []
                for (index, branch) in branches.enumerated() {
                    let split = program.count
                    if index < branches.count - 1 { try append(.split(split + 1, 0)) }
                    try emit(branch)
                    if index < branches.count - 1 {
                        jumps.append(program.count)
                        try append(.jump(0))
                        program[split] = .split(split + 1, program.count)
                    }
                }
                for jump in jumps { program[jump] = .jump(program.count) }
            case .repeated(let inner, let minimum, let maximum):
                for _ in 0..<minimum { try emit(inner) }
                guard let maximum else {
                    let loop = program.count
                    try append(.split(loop + 1, 0))
                    try emit(inner)
                    try append(.jump(loop))
                    program[loop] = .split(loop + 1, program.count)
                    return
                }
                var splits: [Int] = []
                for _ in minimum..<maximum {
                    splits.append(program.count)
                    try append(.split(0, 0))
                    try emit(inner)
                }
                for split in splits { program[split] = .split(split + 1, program.count) }
            }
        }
    }

    /// Runs every thread of the program over the input at once (Pike's machine), a thread per
    /// instruction at most, so that each character costs at most the program's length.
    fileprivate struct Machine {
        let program: [Instruction]
        let sets: [ScalarSet]
        let input: [Unicode.Scalar]
        /// Whether the input is the beginning of a longer text (its end is not the text's).
        let cut: Bool

        func run() -> Bool {
            var current: [Int] = []
            var next: [Int] = []
            // The position each instruction was last added at: a thread is added once per position.
            var addedAt = [Int](repeating: -1, count: program.count)
            var pending: [Int] = []
            /// Adds the thread at `pc` and those it leads to without reading; true at a match.
            func add(_ pc: Int, at position: Int, to list: inout [Int]) -> Bool {
                pending.append(pc)
                while let pc = pending.popLast() {
                    guard addedAt[pc] != position else { continue }
                    addedAt[pc] = position
                    switch program[pc] {
                    case .scalar: list.append(pc)
                    case .start: if position == 0 { pending.append(pc + 1) }
                    case .end: if position == input.count, !cut { pending.append(pc + 1) }
                    case .split(let first, let second):
                        pending.append(second)
                        pending.append(first)
                    case .jump(let target): pending.append(target)
                    case .match:
                        pending.removeAll()
                        return true
                    }
                }
                return false
            }
            for position in 0...input.count {
                // A match may start anywhere.
                if add(0, at: position, to: &current) { return true }
                guard position < input.count else { break }
                for pc in current {
                    guard case .scalar(let set) = program[pc], sets[set].contains(input[position]) else { continue }
                    if add(pc + 1, at: position + 1, to: &next) { return true }
                }
                swap(&current, &next)
                next.removeAll(keepingCapacity: true)
            }
            return false
        }
    }
}
