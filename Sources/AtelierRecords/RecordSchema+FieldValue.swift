extension RecordSchema {
    /// One value given for a field, with the field's name for the messages: a method per kind
    /// of field checks the value and returns it normalised (`RecordSchema.normalize` picks the
    /// method). Every message starts `field "NAME"` and shows the value that was wrong.
    struct FieldValue {
        let value: JSONValue
        let field: String

        /// `field "NAME" must be EXPECTED, got VALUE`.
        func mismatch(_ expected: String) -> RecordsError {
            RecordsError.field("field \"\(field)\" must be \(expected), got \(preview(value))")
        }

        /// `field "NAME": WHY`, for what a vocabulary or a part of the value says.
        func failure(_ why: String) -> RecordsError { RecordsError.field("field \"\(field)\": \(why)") }

        func string() throws(RecordsError) -> String {
            guard case .string(let s) = value else { throw mismatch("a string") }
            return s
        }

        func list() throws(RecordsError) -> [JSONValue] {
            guard case .array(let items) = value else { throw mismatch("a list") }
            return items
        }

        func object() throws(RecordsError) -> JSONValue {
            guard case .object = value else { throw mismatch("an object") }
            return value
        }

        func bool() throws(RecordsError) -> JSONValue {
            guard case .bool = value else { throw mismatch("true or false") }
            return value
        }

        /// Text without a NUL: SQLite's C strings would end at the NUL and store a shorter
        /// text than was printed.
        func text() throws(RecordsError) -> String {
            let s = try string()
            guard !s.utf8.contains(0) else {
                throw RecordsError.field("field \"\(field)\" contains a NUL character (\\u0000), which a text field cannot hold")
            }
            return s
        }

        func integer(atLeast minimum: Int64?) throws(RecordsError) -> Int64 {
            guard let i = value.integer else { throw mismatch("a whole number") }
            if let minimum, i < minimum { throw RecordsError.field("field \"\(field)\" must be at least \(minimum), got \(i)") }
            return i
        }

        /// The number as given, but for a big integer, which becomes a double: a catalog
        /// column holds a double; only fields the schema does not know keep all the digits.
        func number(atLeast minimum: Double?) throws(RecordsError) -> JSONValue {
            guard let d = value.number else { throw mismatch("a number") }
            if let minimum, d < minimum { throw RecordsError.field("field \"\(field)\" must be at least \(minimum), got \(d)") }
            if case .bigInteger = value { return .double(d) }
            return value
        }

        func day() throws(RecordsError) -> String {
            let s = try string()
            guard ISODate.parseDay(s) != nil else { throw mismatch("a date like 2026-11-21") }
            return s
        }

        /// A UTC instant; a day alone is its midnight.
        func instant() throws(RecordsError) -> String {
            let s = try string()
            if ISODate.parseDay(s) != nil { return s + "T00:00:00Z" }
            guard let normalized = ISODate.normalizeInstant(s) else { throw mismatch("a time like 2026-11-21T10:15:00Z") }
            return normalized
        }

        func word(in vocabulary: Vocabulary) throws(RecordsError) -> String {
            let word = try string()
            do { return try vocabulary.canonical(word) } catch { throw failure(error.reason) }
        }

        /// Each a word of the vocabulary, in its canonical spelling, once.
        func words(in vocabulary: Vocabulary) throws(RecordsError) -> [JSONValue] {
            var out: [JSONValue] = []
            for item in try list() {
                let word = try Self.listedString(item, field: field)
                let canonical: String
                do { canonical = try vocabulary.canonical(word) } catch { throw failure(error.reason) }
                if !out.contains(.string(canonical)) { out.append(.string(canonical)) }
            }
            return out
        }

        /// Strings, each once.
        func texts() throws(RecordsError) -> [JSONValue] {
            var out: [JSONValue] = []
            for item in try list() {
                let s = try Self.listedString(item, field: field)
                if !out.contains(.string(s)) { out.append(.string(s)) }
            }
            return out
        }

        /// An item of a list of strings.
        private static func listedString(_ item: JSONValue, field: String) throws(RecordsError) -> String {
            guard case .string(let s) = item else { throw RecordsError.field("field \"\(field)\" must be a list of strings, got \(preview(item)) in it") }
            return s
        }

        func id(prefix: String) throws(RecordsError) -> String {
            let s = try string()
            guard RecordIDGenerator.isValid(s, prefix: prefix) else { throw mismatch("an id like \(prefix)_01jd…") }
            return s
        }

        /// The items, each normalised by `normalizeItem`, each once.
        func distinctItems(_ normalizeItem: (JSONValue) throws(RecordsError) -> JSONValue) throws(RecordsError) -> [JSONValue] {
            var out: [JSONValue] = []
            for item in try list() {
                let normalized = try normalizeItem(item)
                if !out.contains(normalized) { out.append(normalized) }
            }
            return out
        }

        func imageID() throws(RecordsError) -> String {
            let s = try string().lowercased()
            guard isImageID(s) else { throw mismatch("an image id like sha256:<64 hex digits>") }
            return s
        }

        /// `#rrggbb` in lower case; the `#` may be left out.
        func hexColor() throws(RecordsError) -> String {
            var s = try string().lowercased()
            if !s.hasPrefix("#") { s = "#" + s }
            guard s.utf8.count == 7, s.utf8.dropFirst().allSatisfy(isHexDigit) else { throw mismatch("a colour like #1a2b3c") }
            return s
        }

        func hash64() throws(RecordsError) -> String {
            let s = try string().lowercased()
            guard s.utf8.count == 16, s.utf8.allSatisfy(isHexDigit) else { throw mismatch("16 hex digits") }
            return s
        }

        func hash64List() throws(RecordsError) -> String {
            let s = try string().lowercased()
            guard s.utf8.count % 16 == 0, s.utf8.count <= 16 * 256, s.utf8.allSatisfy(isHexDigit) else {
                throw mismatch("hashes of 16 hex digits each, run together")
            }
            return s
        }

        /// `{amount, currency}`: an amount of at least 0 and a three-letter currency in upper
        /// case (EUR when left out); other keys kept after them.
        func money() throws(RecordsError) -> JSONObject {
            guard case .object(let money) = value else { throw mismatch("an object like {\"amount\": 49.9, \"currency\": \"EUR\"}") }
            var out = JSONObject()
            guard let amount = money["amount"] else { throw RecordsError.field("field \"\(field).amount\" is missing") }
            guard let number = amount.number else { throw RecordsError.field("field \"\(field).amount\" must be a number, got \(preview(amount))") }
            guard number >= 0 else { throw RecordsError.field("field \"\(field).amount\" must not be negative, got \(number)") }
            out["amount"] = amount
            let currency = money["currency"]?.string?.uppercased() ?? "EUR"
            guard currency.utf8.count == 3, currency.utf8.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else {
                throw RecordsError.field("field \"\(field).currency\" must be a three-letter ISO 4217 code like \"EUR\", got \(preview(money["currency"] ?? .null))")
            }
            out["currency"] = .string(currency)
            for (k, v) in money where k != "amount" && k != "currency" { out[k] = v }
            return out
        }

        /// `[{fabric, percent}]`: known fabrics in their canonical names, each percentage in
        /// (0, 100], together at most 100 (with half a percent for rounding).
        func composition() throws(RecordsError) -> [JSONValue] {
            var out: [JSONValue] = []
            var total = 0.0
            for item in try list() {
                guard case .object(let part) = item else { throw mismatch("a list like [{\"fabric\": \"cotton\", \"percent\": 95}]") }
                guard case .string(let fabricName)? = part["fabric"] else { throw failure("each part needs a \"fabric\" name") }
                let fabric: String
                do { fabric = try Domain.fabric.canonical(fabricName) } catch { throw failure(error.reason) }
                guard let percentValue = part["percent"], let percent = percentValue.number, percent > 0, percent <= 100 else {
                    throw failure("\"percent\" of \(fabric) must be a number in (0, 100], got \(preview(part["percent"] ?? .null))")
                }
                total += percent
                var normalized = part
                normalized["fabric"] = .string(fabric)
                out.append(.object(normalized))
            }
            if total > 100.5 { throw failure("percentages add up to \(total), more than 100") }
            return out
        }

        /// Care symbols, as codes or as the reader's `{code, confidence, box}`: each code a
        /// known symbol, each confidence in [0, 1]; a code alone becomes `{code}`.
        func careReadings() throws(RecordsError) -> [JSONValue] {
            var out: [JSONValue] = []
            for item in try list() {
                switch item {
                case .string(let code):
                    do { out.append(["code": .string(try Domain.careSymbol.canonical(code))]) } catch { throw failure(error.reason) }
                case .object(var reading):
                    guard case .string(let code)? = reading["code"] else { throw failure("each symbol needs a \"code\"") }
                    do { reading["code"] = .string(try Domain.careSymbol.canonical(code)) } catch { throw failure(error.reason) }
                    if let confidence = reading["confidence"], confidence.number.map({ $0 < 0 || $0 > 1 }) ?? true {
                        throw failure("confidence must be a number from 0 to 1, got \(preview(confidence))")
                    }
                    out.append(.object(reading))
                default:
                    throw mismatch("a list of symbol codes or {code, confidence, box} objects")
                }
            }
            return out
        }

        /// Notices: each a string, or an object with a text `message`, an optional text `kind`
        /// and an optional list of garment ids `garments`; other keys are kept.
        func notices() throws(RecordsError) -> [JSONValue] {
            var out: [JSONValue] = []
            for item in try list() {
                switch item {
                case .string:
                    out.append(item)
                case .object(var notice):
                    guard case .string? = notice["message"] else { throw failure("each notice needs a \"message\" text") }
                    if let kind = notice["kind"], kind.string == nil { throw failure("\"kind\" must be a text, got \(preview(kind))") }
                    if let garments = notice["garments"] {
                        notice["garments"] = try RecordSchema.normalize(garments, as: .ids(prefix: "g"), field: field + ".garments")
                    }
                    out.append(.object(notice))
                default:
                    throw mismatch("a list of texts or {kind, message, garments} objects")
                }
            }
            return out
        }
    }
}
