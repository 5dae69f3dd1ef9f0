import AtelierRecords
import AtelierWardrobe

/// The fields worked out as records are read (`RecordSchema.computed`), by the wardrobe's own
/// rules, so a query condition on one agrees with the laundry plan.
enum ComputedFields {
    /// Adds the computed fields of a `type` record, as of `today`.
    static func add(to record: inout JSONObject, type: String, today: Int) {
        guard type == "garment", let garment = LaundryGarment(record: record) else { return }
        record["readyToWash"] = .bool(garment.isReadyToWash(on: today))
    }
}
