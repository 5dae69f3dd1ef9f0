import AtelierRecords

/// Turns a wardrobe into machine loads: the garments that want washing, sorted into piles by
/// `LaundrySorter`, each pile split into loads a machine of `capacityGrams` takes.
///
/// Garments are fed one at a time (`add`), and only those that want washing are kept (with a
/// small entry each for packing), so memory follows the laundry, not the wardrobe; the loads
/// are handed out one at a time (`plan(_:)`). The plan is deterministic for the same garments
/// in the same order. Within a pile, hand-wash-only garments make loads of their own, and machine garments
/// are packed hottest label first, so that garments that take the same temperature share a load.
public struct LaundryPlanner: Sendable {
    public let capacityGrams: Int
    /// The day readiness is judged on (days since 1970-01-01).
    public let today: Int

    /// What packing needs of a ready garment.
    private struct Entry: Sendable {
        var index: Int32
        /// Into `kept`.
        var slot: Int32
        var weightGrams: Int32
        /// The label's maximum, Int16.max for none.
        var celsius: Int16
        var process: CareConstraints.Process
        var id: String
    }

    private var piles: [LaundryBin: [Entry]] = [:]
    private var kept: [LaundryGarment] = []
    private var unplaced: [(index: Int32, garment: UnplacedGarment)] = []
    /// Unfinished loads by garment id, as `noteOpenLoad` gives them (before or after the garment).
    private var openLoads: [String: String] = [:]
    private var count: Int32 = 0

    /// The default machine: 7 kg of dry cotton.
    public static let defaultCapacityKilograms = 7.0

    public init(capacityGrams: Int = 7000, today: Int) {
        self.capacityGrams = capacityGrams
        self.today = today
    }

    /// Considers one garment: ignored unless it wants washing; `openLoad` names the unfinished
    /// load it is already in, if any (`noteOpenLoad` says so too). Returns whether it was ready.
    @discardableResult
    public mutating func add(_ garment: LaundryGarment, openLoad: String? = nil) -> Bool {
        guard garment.isReadyToWash(on: today) else { return false }
        count += 1
        if let openLoad { noteOpenLoad(openLoad, garment: garment.id) }
        func leave(_ reason: String) {
            unplaced.append((count, UnplacedGarment(id: garment.id, name: garment.name, reason: reason)))
        }
        if let load = openLoads[garment.id] {
            leave("already in load \(load)")
            return true
        }
        switch LaundrySorter.placement(of: garment) {
        case .notPlaced(let reason):
            leave(reason)
        case .bin(let bin):
            if bin != .professional && garment.weight > capacityGrams {
                leave("heavier (\(LoadCheck.kilograms(garment.weight))) than the machine takes (\(LoadCheck.kilograms(capacityGrams)))")
                return true
            }
            let rules = garment.constraints
            let slot = Int32(kept.count)
            kept.append(garment)
            piles[bin, default: []].append(Entry(
                index: count, slot: slot, weightGrams: Int32(clamping: garment.weight),
                celsius: Int16(clamping: rules.maxWashCelsius ?? Int(Int16.max)), process: rules.washProcess ?? .normal,
                id: garment.id))
        }
        return true
    }

    /// Notes that a garment is in an unfinished load (named as the reason will name it), so
    /// that the plan leaves it out; a stream may give the load after the garment.
    public mutating func noteOpenLoad(_ load: String, garment: String) {
        if openLoads[garment] == nil { openLoads[garment] = load }
    }

    /// The loads, pile by pile in `LaundryBin` order, and the ready garments not placed; the
    /// planner is empty afterwards.
    public mutating func plan() -> LaundryPlan {
        var loads: [LaundryLoad] = []
        let left = plan { loads.append($0) }
        return LaundryPlan(loads: loads, unplaced: left)
    }

    /// Makes the loads pile by pile in `LaundryBin` order and hands each to `emit` as it is
    /// made, without gathering them; returns the ready garments not placed, in the order they
    /// came. The planner is empty afterwards.
    public mutating func plan(_ emit: (LaundryLoad) throws -> Void) rethrows -> [UnplacedGarment] {
        var left = unplaced
        unplaced = []
        for bin in LaundryBin.allCases {
            var pile: [Entry] = []
            for entry in piles.removeValue(forKey: bin) ?? [] {
                if let load = openLoads[entry.id] {
                    left.append((entry.index, UnplacedGarment(id: entry.id, name: kept[Int(entry.slot)].name, reason: "already in load \(load)")))
                } else {
                    pile.append(entry)
                }
            }
            guard !pile.isEmpty else { continue }
            func garments(_ members: [Entry]) -> [LaundryGarment] { members.map { kept[Int($0.slot)] } }
            if bin == .professional {
                try emit(LaundryLoad(bin: bin, garments: garments(pile), byHand: false))
                continue
            }
            let byHand = pile.filter { $0.process == .hand }
            let machine = pile.filter { $0.process != .hand }
            for (group, hand) in [(machine, false), (byHand, true)] where !group.isEmpty {
                for members in pack(group) { try emit(LaundryLoad(bin: bin, garments: garments(members), byHand: hand)) }
            }
        }
        kept = []
        // A garment in an open load is left out for that, whatever else would have been said.
        left = left.map { item in
            guard let load = openLoads[item.garment.id], !item.garment.reason.hasPrefix("already in load") else { return item }
            return (item.index, UnplacedGarment(id: item.garment.id, name: item.garment.name, reason: "already in load \(load)"))
        }
        return left.sorted { $0.index < $1.index }.map(\.garment)
    }

    /// Splits a pile into loads within capacity: hottest label first, then gentlest process,
    /// then id, filled in that order (next fit).
    private func pack(_ pile: [Entry]) -> [[Entry]] {
        let sorted = pile.sorted { a, b in
            if a.celsius != b.celsius { return a.celsius > b.celsius }
            if a.process != b.process { return a.process < b.process }
            return a.id < b.id
        }
        var loads: [[Entry]] = []
        var current: [Entry] = []
        var weight = 0
        for entry in sorted {
            let w = Int(entry.weightGrams)
            if !current.isEmpty && weight + w > capacityGrams {
                loads.append(current)
                current = []
                weight = 0
            }
            current.append(entry)
            weight += w
        }
        if !current.isEmpty { loads.append(current) }
        return loads
    }
}

/// What `LaundryPlanner.plan()` makes.
public struct LaundryPlan: Sendable {
    public var loads: [LaundryLoad]
    public var unplaced: [UnplacedGarment]

    /// The plan as records: one `laundry` record per load, then one `unplaced` per garment left out.
    public func records(plannedOn day: Int) -> [JSONObject] {
        loads.map { $0.record(plannedOn: day) } + unplaced.map(\.record)
    }
}
