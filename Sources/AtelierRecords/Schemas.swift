/// The record types of the protocol (DESIGN.md, atelier(7)) and their fields.
public enum Schemas {
    public static let garment = RecordSchema(type: "garment", idPrefix: "g", required: ["name", "category"], computed: ["readyToWash"],
                                                aliases: ["season": "seasons", "tag": "tags", "image": "images", "fabric": "composition.fabric", "colour": "color"], fields: [
        FieldSpec("id", .id(prefix: "g"), column: "id"),
        FieldSpec("name", .text, column: "name"),
        FieldSpec("category", .word(Domain.category), column: "category"),
        FieldSpec("subcategory", .word(Domain.subcategory), column: "subcategory"),
        FieldSpec("brand", .text, column: "brand"),
        FieldSpec("color", .hexColor, column: "color"),
        FieldSpec("colorName", .text, column: "color_name"),
        FieldSpec("seasons", .words(Domain.season), column: "seasons"),
        FieldSpec("style", .word(Domain.style), column: "style"),
        FieldSpec("state", .word(Domain.state), column: "state"),
        FieldSpec("composition", .composition, column: "composition"),
        FieldSpec("care", .words(Domain.careSymbol), column: "care"),
        FieldSpec("price", .money, column: "price"),
        FieldSpec("purchasedOn", .day, column: "purchased_on"),
        FieldSpec("wearCount", .integer(minimum: 0), column: "wear_count"),
        FieldSpec("lastWornOn", .day, column: "last_worn_on"),
        FieldSpec("lastWashedOn", .day, column: "last_washed_on"),
        // Kept by the wear log (a wear after the last wash counts) and reset by a finished load.
        FieldSpec("wearsSinceWash", .integer(minimum: 0), column: "wears_since_wash"),
        // Computed on output (AtelierWardrobe's rule), never stored; see `computed`.
        FieldSpec("readyToWash", .bool),
        // The dry weight laundry planning counts, when the subcategory's typical one is wrong.
        FieldSpec("weightGrams", .integer(minimum: 1)),
        FieldSpec("images", .imageIDs, column: "images"),
        FieldSpec("model", .id(prefix: "m"), column: "model_id"),
        FieldSpec("tags", .texts, column: "tags"),
        FieldSpec("notes", .text, column: "notes"),
        FieldSpec("createdAt", .instant, column: "created_at"),
        FieldSpec("updatedAt", .instant, column: "updated_at"),
    ])

    public static let outfit = RecordSchema(type: "outfit", idPrefix: "o", required: ["name"], computed: ["tone", "value", "why"],
                                               aliases: ["season": "seasons", "garment": "garments", "occasion": "occasions", "tag": "tags"], fields: [
        FieldSpec("id", .id(prefix: "o"), column: "id"),
        FieldSpec("name", .text, column: "name"),
        // Kept in the outfit_garments table, in order, with foreign keys to garments.
        FieldSpec("garments", .ids(prefix: "g")),
        FieldSpec("seasons", .words(Domain.season), column: "seasons"),
        FieldSpec("occasions", .texts, column: "occasions"),
        FieldSpec("favorite", .bool, column: "favorite"),
        FieldSpec("tags", .texts, column: "tags"),
        FieldSpec("notes", .text, column: "notes"),
        FieldSpec("wearCount", .integer(minimum: 0), column: "wear_count"),
        FieldSpec("lastWornOn", .day, column: "last_worn_on"),
        // Computed from its garments when read from the catalog, never stored.
        FieldSpec("tone", .word(Domain.colourTone)),
        FieldSpec("value", .object),
        // On a suggestion (atl-query suggest): its score and the reasons, never stored.
        FieldSpec("why", .object),
        FieldSpec("createdAt", .instant, column: "created_at"),
        FieldSpec("updatedAt", .instant, column: "updated_at"),
    ])

    /// One line of the wear log: a garment or an outfit worn on a day.
    public static let wear = RecordSchema(type: "wear", idPrefix: nil, fields: [
        FieldSpec("garment", .id(prefix: "g"), column: "garment_id"),
        FieldSpec("outfit", .id(prefix: "o"), column: "outfit_id"),
        FieldSpec("date", .day, column: "date"),
    ])

    public static let laundry = RecordSchema(type: "laundry", idPrefix: "l", required: ["bin"], fields: [
        FieldSpec("id", .id(prefix: "l"), column: "id"),
        FieldSpec("bin", .word(Domain.laundryBin), column: "bin"),
        FieldSpec("program", .text, column: "program"),
        FieldSpec("temperature", .integer(minimum: 0), column: "temperature"),
        FieldSpec("durationMinutes", .integer(minimum: 0)),
        FieldSpec("weightGrams", .integer(minimum: 0)),
        FieldSpec("garments", .ids(prefix: "g"), column: "garments"),
        FieldSpec("symbols", .words(Domain.careSymbol), column: "symbols"),
        FieldSpec("warnings", .notices, column: "warnings"),
        FieldSpec("status", .word(Domain.laundryStatus), column: "status"),
        FieldSpec("plannedOn", .day, column: "planned_on"),
        FieldSpec("startedAt", .instant, column: "started_at"),
        FieldSpec("finishedAt", .instant, column: "finished_at"),
        // The strictest reading of the garments' labels (a care record's `constraints`).
        FieldSpec("instructions", .object),
        // Each garment's state before the load took it, put back if the load is cancelled.
        FieldSpec("priorStates", .object, column: "prior_states"),
        FieldSpec("notes", .text, column: "notes"),
        FieldSpec("createdAt", .instant, column: "created_at"),
        FieldSpec("updatedAt", .instant, column: "updated_at"),
    ])

    public static let image = RecordSchema(type: "image", idPrefix: nil, required: [], fields: [
        FieldSpec("id", .imageID, column: "id"),
        FieldSpec("path", .text, column: "path"),
        FieldSpec("width", .integer(minimum: 1), column: "width"),
        FieldSpec("height", .integer(minimum: 1), column: "height"),
        FieldSpec("bytes", .integer(minimum: 0), column: "bytes"),
        FieldSpec("format", .text, column: "format"),
        FieldSpec("takenAt", .instant, column: "taken_at"),
        FieldSpec("orientation", .integer(minimum: 1), column: "orientation"),
        FieldSpec("phash", .hash64, column: "phash"),
        FieldSpec("dhash", .hash64, column: "dhash"),
        // pHashes of 48 windows of the photo (PerceptualHash.windows), 16 hex digits each: how
        // a crop of it is found.
        FieldSpec("phashWindows", .hash64List, column: "phash_windows"),
        FieldSpec("thumbnail", .text, column: "thumbnail"),
        FieldSpec("thumbnailSquare", .text),
        FieldSpec("source", .text),
        FieldSpec("camera", .object),
        FieldSpec("garment", .id(prefix: "g"), column: "garment_id"),
        FieldSpec("createdAt", .instant, column: "created_at"),
    ])

    /// The colours read from a garment's photo (`atl-classify --task color`); importing one sets
    /// the garment's `color` and `colorName` to its primary colour.
    public static let color = RecordSchema(type: "color", idPrefix: nil, fields: [
        FieldSpec("path", .text),
        FieldSpec("image", .imageID),
        FieldSpec("garment", .id(prefix: "g")),
        FieldSpec("color", .hexColor),
        FieldSpec("colorName", .text),
        FieldSpec("colorGroup", .word(Domain.colorGroup)),
        FieldSpec("colors", .any),
    ])

    /// Care symbols read from a label photo; importing one sets the garment's `care`.
    public static let care = RecordSchema(type: "care", idPrefix: nil, fields: [
        FieldSpec("path", .text),
        FieldSpec("image", .imageID),
        FieldSpec("symbols", .careReadings),
        FieldSpec("constraints", .object),
        FieldSpec("garment", .id(prefix: "g")),
    ])

    public static let model = RecordSchema(type: "model", idPrefix: "m", required: [], fields: [
        FieldSpec("id", .id(prefix: "m"), column: "id"),
        FieldSpec("garment", .id(prefix: "g"), column: "garment_id"),
        FieldSpec("dir", .text, column: "dir"),
        FieldSpec("files", .object, column: "files"),
        FieldSpec("detail", .word(Domain.detailLevel), column: "detail"),
        FieldSpec("images", .integer(minimum: 0), column: "images"),
        FieldSpec("registered", .integer(minimum: 0), column: "registered"),
        FieldSpec("points", .integer(minimum: 0), column: "points"),
        FieldSpec("vertices", .integer(minimum: 0), column: "vertices"),
        FieldSpec("faces", .integer(minimum: 0), column: "faces"),
        FieldSpec("metrics", .object, column: "metrics"),
        FieldSpec("createdAt", .instant, column: "created_at"),
    ])

    /// Every record type the protocol defines, by its `type` name.
    public static let byType: [String: RecordSchema] = Dictionary(
        uniqueKeysWithValues: [garment, outfit, wear, laundry, image, care, color, model].map { ($0.type, $0) })
}
