import AtelierRecords

/// `atl-query duplicates`: image records in, `group` records out.
///
/// Each group of near-duplicates becomes `{"type":"group","id":"dup-…","size":n,"images":[{id,
/// path, distance}]}`, the distance counted in pHash bits from the group's first photo; photos
/// that match nothing come last in the group `other`, as photo organisers show them.
public struct DuplicateGrouping {
    /// pHash bits: re-encoded, resized and brightened copies differ by a few, distinct photos
    /// by about 32 (see benchmarks/RESULTS.md for how it was chosen).
    public static let defaultThreshold = 8

    public private(set) var records: [JSONObject] = []
    /// Images without a usable `phash`, left out.
    public private(set) var unhashed = 0

    public init(images: [JSONObject], threshold: Int) {
        var hashed: [JSONObject] = []
        var hashes: [UInt64] = []
        for image in images {
            guard let hex = image["phash"]?.string, let hash = PerceptualHash.parse(hex) else {
                unhashed += 1
                continue
            }
            hashed.append(image)
            hashes.append(hash)
        }
        let (groups, others) = DuplicateGroups.find(hashes, threshold: threshold)
        func member(_ index: Int, distance: Int?) -> JSONValue {
            var entry = JSONObject()
            entry["id"] = hashed[index]["id"] ?? .null
            if let path = hashed[index]["path"] { entry["path"] = path }
            if let distance { entry["distance"] = .int(Int64(distance)) }
            return .object(entry)
        }
        for group in groups {
            let leader = hashed[group.members[0]]["id"]?.string ?? "\(group.members[0])"
            let tag = leader.hasPrefix("sha256:") ? String(leader.dropFirst(7).prefix(12)) : leader
            records.append(["type": "group", "id": .string("dup-" + tag), "size": .int(Int64(group.members.count)),
                            "images": .array(zip(group.members, group.distances).map { member($0, distance: $1) })])
        }
        if !others.isEmpty {
            records.append(["type": "group", "id": "other", "size": .int(Int64(others.count)),
                            "images": .array(others.map { member($0, distance: nil) })])
        }
    }
}
