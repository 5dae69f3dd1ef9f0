import AtelierRecords

/// Reads the fields of one object of a network header, turning every missing, mistyped or
/// out-of-range value into the `CareLabelError` that `fail` makes of a sentence.
struct HeaderFields {
    let object: JSONObject
    let fail: (String) -> CareLabelError

    /// Refuses keys the format does not define: a misspelt `"strides"` silently ignored would
    /// make a network that computes something else than it was trained to.
    func requireOnly(_ allowed: [String]) throws(CareLabelError) {
        for (key, _) in object where !allowed.contains(key) {
            throw fail("unknown key \(quoted(key)) (expected \(allowed.map(quoted).joined(separator: ", ")))")
        }
    }

    /// A required integer within `range`.
    func integer(_ key: String, in range: ClosedRange<Int>) throws(CareLabelError) -> Int {
        guard let value = object[key] else { throw fail("missing \(quoted(key))") }
        return try integer(key, value, in: range)
    }

    /// An integer within `range`, `defaultValue` when the key is absent.
    func integer(_ key: String, in range: ClosedRange<Int>, default defaultValue: Int) throws(CareLabelError) -> Int {
        guard let value = object[key] else { return defaultValue }
        return try integer(key, value, in: range)
    }

    /// An integer within `range`, or nil when absent or null (an input size any image may have).
    func optionalInteger(_ key: String, in range: ClosedRange<Int>) throws(CareLabelError) -> Int? {
        guard let value = object[key], !value.isNull else { return nil }
        return try integer(key, value, in: range)
    }

    private func integer(_ key: String, _ value: JSONValue, in range: ClosedRange<Int>) throws(CareLabelError) -> Int {
        guard let number = value.integer, number >= Int64(range.lowerBound), number <= Int64(range.upperBound) else {
            throw fail("\(quoted(key)) must be an integer from \(range.lowerBound) to \(range.upperBound), got \(shown(value))")
        }
        return Int(number)
    }

    /// A required finite number.
    func number(_ key: String) throws(CareLabelError) -> Double {
        guard let value = object[key] else { throw fail("missing \(quoted(key))") }
        guard let number = value.number, number.isFinite else {
            throw fail("\(quoted(key)) must be a number, got \(shown(value))")
        }
        return number
    }

    /// A required non-empty string.
    func string(_ key: String) throws(CareLabelError) -> String {
        guard let value = object[key] else { throw fail("missing \(quoted(key))") }
        guard let string = value.string, !string.isEmpty else {
            throw fail("\(quoted(key)) must be a non-empty string, got \(shown(value))")
        }
        return string
    }

    /// A required object.
    func object(_ key: String) throws(CareLabelError) -> JSONObject {
        guard let value = object[key] else { throw fail("missing \(quoted(key))") }
        guard let inner = value.object else { throw fail("\(quoted(key)) must be an object, got \(shown(value))") }
        return inner
    }

    /// A required array.
    func array(_ key: String) throws(CareLabelError) -> [JSONValue] {
        guard let value = object[key] else { throw fail("missing \(quoted(key))") }
        guard let array = value.array else { throw fail("\(quoted(key)) must be a list, got \(shown(value))") }
        return array
    }

    /// A required `activation` name.
    func activation() throws(CareLabelError) -> Activation {
        let name = try string("activation")
        guard let activation = Activation(rawValue: name) else {
            throw fail("\"activation\" must be one of \(Activation.allCases.map { quoted($0.rawValue) }.joined(separator: ", ")), got \(quoted(name))")
        }
        return activation
    }
}

extension HeaderFields {
    /// `"key"`, as messages show a name from the file.
    static func quoted(_ text: String) -> String {
        let json = JSONWriter.string(.string(text))
        return json.count <= 42 ? json : String(json.prefix(38)) + "...\""
    }

    /// A value as the file wrote it, cut short if long (a damaged file can hold anything).
    static func shown(_ value: JSONValue) -> String {
        let text = JSONWriter.string(value)
        return text.count <= 40 ? text : String(text.prefix(37)) + "..."
    }

    private func quoted(_ text: String) -> String { Self.quoted(text) }
    private func shown(_ value: JSONValue) -> String { Self.shown(value) }
}
