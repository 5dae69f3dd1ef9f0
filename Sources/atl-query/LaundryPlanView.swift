import AtelierCLI
import AtelierCatalog
import AtelierRecords
import AtelierWardrobe

extension QueryCommand {
    /// `laundry-plan`: the garments that want washing, as machine loads (`LaundryPlanner`),
    /// from the catalog or from garment records on a stream. Garments already in an unfinished
    /// load (one stored, or a laundry record on the stream) are listed as not placed.
    func laundryPlan(filters: [FieldFilter], projection: [[String]]?, day: Int, out: RecordOutput) throws -> Int {
        let capacity = Int((capacityKg * 1000).rounded())
        var left = limit ?? Int.max
        var planned = 0
        func write(_ record: JSONObject) throws {
            planned += 1
            guard left > 0 else { return }
            left -= 1
            try out.write(projection.map { projectRecord(record, fields: $0) } ?? record)
        }
        // Loads are written as they are made, not gathered first.
        var planner = LaundryPlanner(capacityGrams: capacity, today: day)
        if readsStream {
            let garmentFilter = StreamFilter(filters: filters, sort: [], limit: nil, fields: nil)
            var withoutID = 0
            for file in streamFiles {
                try garmentFilter.collect(LineReader(path: file), everyRecord: { record in
                    if record["type"] == "laundry" { Self.noteOpenLoad(record, in: &planner) }
                }) { record in
                    guard record["type"] == "garment" else { return }
                    if let garment = LaundryGarment(record: record) { planner.add(garment) } else { withoutID += 1 }
                }
            }
            if withoutID > 0 {
                Diagnostics.warn("\(withoutID) garment record\(withoutID == 1 ? " has" : "s have") no id and \(withoutID == 1 ? "was" : "were") left out: a load names its garments by id (import them first)")
            }
        } else {
            let store = try Catalog(path: catalog.path, create: false)
            try store.read { reader in
                try reader.run(CatalogQuery(type: "laundry", filters: [try FieldFilter.parse("status!=done"), try FieldFilter.parse("status!=cancelled")])) {
                    Self.noteOpenLoad($0, in: &planner)
                }
                let warnings = try reader.run(CatalogQuery(type: "garment", filters: filters, today: day)) { record in
                    if let garment = LaundryGarment(record: record) { planner.add(garment) }
                }
                warnings.forEach(Diagnostics.warn)
            }
        }
        let unplaced = try planner.plan { load in try write(load.record(plannedOn: day)) }
        for garment in unplaced { try write(garment.record) }
        if planned == 0 { Diagnostics.warn("nothing wants washing on \(ISODate.formatDay(day))") }
        try out.flush()
        return out.count
    }

    /// Tells the planner the garments of a load that is not finished.
    private static func noteOpenLoad(_ record: JSONObject, in planner: inout LaundryPlanner) {
        let status = record["status"]?.string.flatMap(LaundryStatus.init(rawValue:)) ?? .planned
        guard status.isOpen else { return }
        let name = "\(record["id"]?.string ?? "on the stream") (\(status.rawValue))"
        for case .string(let garment) in record["garments"]?.array ?? [] { planner.noteOpenLoad(name, garment: garment) }
    }
}
