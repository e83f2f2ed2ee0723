import Foundation

/// `UIScrollView.decelerationRate`: the fraction of its velocity a flung scroll view keeps each
/// millisecond. `normal` is 0.998 and `fast` 0.99 (Apple's `UIScrollView.DecelerationRate`
/// documentation); any number above 0 and at most ``ScenarioLimits/decelerationRate`` may be given.
public struct DecelerationRate: Hashable, Sendable {
    /// `UIScrollView.DecelerationRate.normal`.
    public static let normal = DecelerationRate(checked: 0.998)
    /// `UIScrollView.DecelerationRate.fast`.
    public static let fast = DecelerationRate(checked: 0.99)

    /// The fraction of velocity kept per millisecond, in (0, ``ScenarioLimits/decelerationRate``].
    public let value: Double

    /// A rate of `value`, if it is above 0 and at most ``ScenarioLimits/decelerationRate`` (0 would
    /// stop at once, 1 never, and near 1 a fling decelerates for days).
    public init?(_ value: Double) {
        guard value > 0, value <= ScenarioLimits.decelerationRate else { return nil }
        self.value = value
    }

    private init(checked value: Double) {
        self.value = value
    }

    /// `1000 ln r`: the exponent per second of the velocity's decay (negative).
    public var decayPerSecond: Double { 1000 * log(value) }

    /// The rates with names, as files write them.
    public static let named: [(name: String, rate: DecelerationRate)] = [("normal", .normal), ("fast", .fast)]

    /// `normal` or `fast` when the value is one of them.
    public var name: String? {
        Self.named.first { $0.rate == self }?.name
    }
}

extension DecelerationRate: FieldConvertible {
    /// A name or a number: the reader checks which.
    public static var fieldShape: FieldShape { .any }

    /// Reads `normal`, `fast` or a number above 0 and at most ``ScenarioLimits/decelerationRate``.
    public init(field value: FieldValue, path: String) throws(FieldError) {
        if case .string(let name) = value {
            guard let rate = Self.named.first(where: { $0.name == name })?.rate else {
                throw FieldError(path: path, problem: .invalidValue("must be normal, fast or \(Self.numbers), found '\(name)'"))
            }
            self = rate
            return
        }
        let number = try Double(field: value, path: path)
        guard let rate = DecelerationRate(number) else {
            throw FieldError(path: path, problem: .invalidValue("must be normal, fast or \(Self.numbers), found \(number)"))
        }
        self = rate
    }

    /// The numbers a rate may be, in words.
    private static let numbers = "a number above 0 and at most \(ScenarioLimits.decelerationRate.shortDescription)"

    /// The name for `normal` and `fast`, the number otherwise.
    public var fieldValue: FieldValue { name.map(FieldValue.string) ?? .double(value) }
}
