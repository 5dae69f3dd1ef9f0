extension FieldFilter {
    /// The condition as it applies to records of `schema`'s type: a singular alias resolved to its
    /// field (`season=winter` → `seasons=winter`) and an enum operand checked against the
    /// vocabulary and spelled canonically (`category=Outerwear` → `outerwear`; `outwear` is an
    /// error with a suggestion).
    ///
    /// The catalog and `atl-query -` both filter through this, so they agree on every record.
    public func canonicalized(for schema: RecordSchema) throws(RecordsError) -> FieldFilter {
        var filter = self
        let alias = schema.canonicalFieldName(path[0])
        if alias != path[0] {
            filter = try FieldFilter(path: alias.split(separator: ".").map(String.init) + path.dropFirst(), op: op, operand: operand)
        }
        guard filter.path.count == 1, let spec = schema.field(filter.path[0]),
              [.equal, .notEqual, .has].contains(filter.op) else { return filter }
        switch spec.kind {
        case .word(let vocabulary), .words(let vocabulary):
            let canonical: String
            do throws(RecordsError) {
                canonical = try vocabulary.canonical(filter.operand)
            } catch {
                throw RecordsError.filter("in '\(filter)': \(error.reason)")
            }
            return try FieldFilter(path: filter.path, op: filter.op, operand: canonical)
        default:
            return filter
        }
    }
}
