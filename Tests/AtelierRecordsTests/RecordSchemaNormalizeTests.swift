import XCTest
@testable import AtelierRecords

/// `RecordSchema.normalize` on every kind of field: what it makes of a good value, and the
/// exact message for each way a value can be wrong.
final class RecordSchemaNormalizeTests: XCTestCase {
    /// A kind, a value as JSON text, and what comes out: the normalised value as JSON text, or
    /// `error: ` and the message.
    static let cases: [(kind: FieldKind, input: String, expected: String)] = [
        (.any, #"{"a":[1,null]}"#, #"{"a":[1,null]}"#),
        (.object, #"{"a":1}"#, #"{"a":1}"#),
        (.object, "[1]", #"error: field "f" must be an object, got [1]"#),
        (.text, #""hi""#, #""hi""#),
        (.text, "1", #"error: field "f" must be a string, got 1"#),
        (.text, #""a\u0000b""#, #"error: field "f" contains a NUL character (\u0000), which a text field cannot hold"#),
        (.bool, "true", "true"),
        (.bool, #""yes""#, #"error: field "f" must be true or false, got "yes""#),
        (.integer(minimum: 0), "3", "3"),
        (.integer(minimum: 0), "-1", #"error: field "f" must be at least 0, got -1"#),
        (.integer(minimum: nil), "2.5", #"error: field "f" must be a whole number, got 2.5"#),
        (.number(minimum: 0), "2.5", "2.5"),
        (.number(minimum: nil), "123456789012345678901234567890", "1.2345678901234568e+29"),
        (.number(minimum: 0), "-0.5", #"error: field "f" must be at least 0.0, got -0.5"#),
        (.number(minimum: nil), #""x""#, #"error: field "f" must be a number, got "x""#),
        (.day, #""2026-11-21""#, #""2026-11-21""#),
        (.day, #""2026-13-01""#, #"error: field "f" must be a date like 2026-11-21, got "2026-13-01""#),
        (.instant, #""2026-11-21""#, #""2026-11-21T00:00:00Z""#),
        (.instant, #""2026-11-21T10:15:00+01:00""#, #""2026-11-21T09:15:00Z""#),
        (.instant, #""noon""#, #"error: field "f" must be a time like 2026-11-21T10:15:00Z, got "noon""#),
        (.word(Domain.season), #""Fall""#, #""autumn""#),
        (.word(Domain.season), #""wintr""#, #"error: field "f": unknown season "wintr"; did you mean "winter"?"#),
        // Regression: this said `field "f": field "f" must be a string, got 7`.
        (.word(Domain.season), "7", #"error: field "f" must be a string, got 7"#),
        (.words(Domain.season), #"["winter","Winter","fall"]"#, #"["winter","autumn"]"#),
        (.words(Domain.season), #""winter""#, #"error: field "f" must be a list, got "winter""#),
        (.words(Domain.season), "[1]", #"error: field "f" must be a list of strings, got 1 in it"#),
        (.words(Domain.season), #"["wintr"]"#, #"error: field "f": unknown season "wintr"; did you mean "winter"?"#),
        (.texts, #"["a","a","b"]"#, #"["a","b"]"#),
        (.texts, #"["a",null]"#, #"error: field "f" must be a list of strings, got null in it"#),
        (.id(prefix: "g"), #""g_01kdvdna00knm6e0zv30e43g7f""#, #""g_01kdvdna00knm6e0zv30e43g7f""#),
        (.id(prefix: "g"), #""o_01kdvdna00knm6e0zv30e43g7f""#, #"error: field "f" must be an id like g_01jd…, got "o_01kdvdna00knm6e0zv30e43g7f""#),
        (.ids(prefix: "g"), #"["g_1","g_2","g_1"]"#, #"["g_1","g_2"]"#),
        (.ids(prefix: "g"), #"["g_1","x"]"#, #"error: field "f" must be an id like g_01jd…, got "x""#),
        (.ids(prefix: "g"), #""g_1""#, #"error: field "f" must be a list, got "g_1""#),
        (.imageID, #""SHA256:\#(String(repeating: "AB", count: 32))""#, #""sha256:\#(String(repeating: "ab", count: 32))""#),
        (.imageID, #""sha256:abc""#, #"error: field "f" must be an image id like sha256:<64 hex digits>, got "sha256:abc""#),
        (.imageIDs, #"["sha256:\#(String(repeating: "0", count: 64))","SHA256:\#(String(repeating: "0", count: 64))"]"#,
         #"["sha256:\#(String(repeating: "0", count: 64))"]"#),
        (.imageIDs, "[3]", #"error: field "f" must be a string, got 3"#),
        (.hexColor, #""1A2B3C""#, ##""#1a2b3c""##),
        (.hexColor, ##""#12""##, ##"error: field "f" must be a colour like #1a2b3c, got "#12""##),
        (.hash64, #""ABCDEF0123456789""#, #""abcdef0123456789""#),
        (.hash64, #""xyz""#, #"error: field "f" must be 16 hex digits, got "xyz""#),
        (.money, #"{"amount":49.9}"#, #"{"amount":49.9,"currency":"EUR"}"#),
        (.money, #"{"note":"sale","currency":"usd","amount":12}"#, #"{"amount":12,"currency":"USD","note":"sale"}"#),
        (.money, "5", #"error: field "f" must be an object like {"amount": 49.9, "currency": "EUR"}, got 5"#),
        (.money, #"{"currency":"EUR"}"#, #"error: field "f.amount" is missing"#),
        (.money, #"{"amount":"12,50"}"#, #"error: field "f.amount" must be a number, got "12,50""#),
        (.money, #"{"amount":-1}"#, #"error: field "f.amount" must not be negative, got -1.0"#),
        (.money, #"{"amount":1,"currency":"EURO"}"#, #"error: field "f.currency" must be a three-letter ISO 4217 code like "EUR", got "EURO""#),
        (.composition, #"[{"fabric":"Cotton","percent":95},{"fabric":"spandex","percent":5,"note":"x"}]"#,
         #"[{"fabric":"cotton","percent":95},{"fabric":"elastane","percent":5,"note":"x"}]"#),
        (.composition, "[1]", #"error: field "f" must be a list like [{"fabric": "cotton", "percent": 95}], got [1]"#),
        (.composition, #"[{"percent":5}]"#, #"error: field "f": each part needs a "fabric" name"#),
        // Fabrics are open: one the vocabulary does not know is kept (atl-import says so, once).
        (.composition, #"[{"fabric":"cottn","percent":5}]"#, #"[{"fabric":"cottn","percent":5}]"#),
        (.composition, #"[{"fabric":" ","percent":5}]"#, #"error: field "f": an empty fabric is no fabric"#),
        (.composition, #"[{"fabric":"cotton","percent":0}]"#, #"error: field "f": "percent" of cotton must be a number in (0, 100], got 0"#),
        (.composition, #"[{"fabric":"cotton"}]"#, #"error: field "f": "percent" of cotton must be a number in (0, 100], got null"#),
        (.composition, #"[{"fabric":"cotton","percent":60},{"fabric":"wool","percent":60}]"#, #"error: field "f": percentages add up to 120.0, more than 100"#),
        (.careReadings, #"["wash-40",{"code":"iron-low","confidence":0.9,"box":[1,2,3,4]}]"#,
         #"[{"code":"wash-40"},{"code":"iron-low","confidence":0.9,"box":[1,2,3,4]}]"#),
        (.careReadings, #"[{"confidence":0.5}]"#, #"error: field "f": each symbol needs a "code""#),
        (.careReadings, #"["wash-4O"]"#, #"error: field "f": unknown care symbol "wash-4O"; did you mean "wash-40"?"#),
        (.careReadings, #"[{"code":"wash-4O"}]"#, #"error: field "f": unknown care symbol "wash-4O"; did you mean "wash-40"?"#),
        (.careReadings, #"[{"code":"iron-low","confidence":2}]"#, #"error: field "f": confidence must be a number from 0 to 1, got 2"#),
        (.careReadings, #"[{"code":"iron-low","confidence":"high"}]"#, #"error: field "f": confidence must be a number from 0 to 1, got "high""#),
        (.careReadings, "[true]", #"error: field "f" must be a list of symbol codes or {code, confidence, box} objects, got [true]"#),
    ]

    func testEveryKindNormalisesOrSaysWhatIsWrong() throws {
        for (kind, input, expected) in Self.cases {
            let value = try JSONParser.parse(input)
            let actual: String
            do {
                actual = JSONWriter.string(try RecordSchema.normalize(value, as: kind, field: "f"))
            } catch {
                actual = "error: \(error.reason)"
            }
            XCTAssertEqual(actual, expected, "\(kind) \(input)")
        }
    }
}
