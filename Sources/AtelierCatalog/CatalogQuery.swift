import AtelierRecords

/// A listing of one record type: conditions, order and limit, as `atl-query` takes them.
public struct CatalogQuery: Sendable {
    public var type: String
    public var filters: [FieldFilter]
    public var sort: [SortKey]
    public var limit: Int?
    /// For outfits: inline each garment record in place of its id.
    public var expand: Bool
    /// Add the computed fields (`RecordSchema.computed`) to every record, also when no
    /// condition or sort key names them (they are added whenever one does, and an outfit's
    /// always are).
    public var computedFields: Bool
    /// The day computed fields are worked out for (a garment's `readyToWash`).
    public var today: Int
    /// For outfits: only those whose garments are all at home and clean on `today`.
    public var availableOnly = false
    /// The fields the caller will keep of each record (`--fields`), only so that a name the
    /// type does not have is told, as for a condition or a sort key; keeping them is the caller's.
    public var fields: [[String]]?

    public init(type: String, filters: [FieldFilter] = [], sort: [SortKey] = [], limit: Int? = nil, expand: Bool = false,
                computedFields: Bool = false, today: Int = ISODate.today()) {
        self.type = type
        self.filters = filters
        self.sort = sort
        self.limit = limit
        self.expand = expand
        self.computedFields = computedFields
        self.today = today
    }

    /// The record types that can be listed.
    public static let listableTypes = ["garment", "outfit", "wear", "laundry", "image", "model"]
}
