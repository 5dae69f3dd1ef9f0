import AtelierRecords
import XCTest
@testable import AtelierWardrobe

/// The planner's invariants over thousands of seeded random wardrobes: whatever the garments,
/// a plan never breaks a care label, places every ready garment exactly once, fits the machine
/// and repeats itself.
///
/// Each wardrobe comes from its own seed, so a failure names a seed that reproduces it
/// (`Self.wardrobe(seed:)`), and prints the smallest list of its garment records that still fails.
final class LaundryPlannerPropertyTests: XCTestCase {
    /// 2026-03-01.
    static let today = ISODate.dayNumber(year: 2026, month: 3, day: 1)
    static let wardrobeCount = 2000
    static let firstSeed: UInt64 = 0x1A0D_2026_0301

    struct Wardrobe: Sendable {
        let seed: UInt64
        let capacityGrams: Int
        /// The garment records, and the garments they describe, in the same order.
        let records: [JSONObject]
        let garments: [LaundryGarment]
    }

    /// Every wardrobe with its plan, made once for all the tests of the class.
    static let planned: [(wardrobe: Wardrobe, plan: LaundryPlan)] = (0 ..< wardrobeCount).map { i in
        let made = LaundryPlannerPropertyTests.wardrobe(seed: firstSeed &+ UInt64(i))
        return (made, LaundryPlannerPropertyTests.plan(made.garments, capacityGrams: made.capacityGrams))
    }

    static func plan(_ garments: [LaundryGarment], capacityGrams: Int) -> LaundryPlan {
        var planner = LaundryPlanner(capacityGrams: capacityGrams, today: today)
        for garment in garments { planner.add(garment) }
        return planner.plan()
    }

    // MARK: - The wardrobes

    static let washingCodes = CareSymbol.all.filter { $0.family == .washing }.map(\.code)
    static let bleachingCodes = CareSymbol.all.filter { $0.family == .bleaching }.map(\.code)
    static let dryingCodes = CareSymbol.all.filter { $0.family == .drying }.map(\.code)
    static let ironingCodes = CareSymbol.all.filter { $0.family == .ironing }.map(\.code)
    static let professionalCodes = CareSymbol.all.filter { $0.family == .professional }.map(\.code)
    /// Codes that let a cleaner take the garment.
    static let cleanerCodes = ["pro-p", "pro-p-mild", "pro-f", "pro-f-mild", "pro-w", "pro-w-mild", "pro-w-very-mild", "pro-a", "pro-short-cycle"]
    /// Everyday colours, so that whites and pastels turn up as often as in a real wardrobe
    /// (uniform random bytes are mostly vibrant or dark).
    static let palette = [0xffffff, 0xfafafa, 0xf5f5dc, 0x111111, 0x000080, 0x36454f, 0xaec6e8, 0xffd1dc,
                          0xc8102e, 0xff0000, 0xe30b5c, 0x228b22, 0xffa500, 0x808080, 0xc3b091, 0x6f4e37]

    static func wardrobe(seed: UInt64) -> Wardrobe {
        var random = SplitMix64(seed: seed)
        let capacityGrams = random.integer(2000 ... 10000)
        let count = random.integer(1 ... 60)
        let made = (0 ..< count).map { garmentRecord(index: $0, &random) }
        return Wardrobe(seed: seed, capacityGrams: capacityGrams, records: made.map(\.record), garments: made.map(\.garment))
    }

    static func pick<T>(_ items: [T], _ random: inout SplitMix64) -> T { items[random.below(items.count)] }

    /// Today and the 90 days before it, as records write them (0: today).
    static let recentDays = (0 ... 90).map { ISODate.formatDay(today - $0) }

    /// A random garment record, and the garment it describes, built side by side (reading
    /// 60,000 records back costs a second of the budget; `testGarmentRecordsReadAsGenerated`
    /// checks a sample of them reads back the same).
    static func garmentRecord(index: Int, _ random: inout SplitMix64) -> (record: JSONObject, garment: LaundryGarment) {
        var record: JSONObject = ["type": "garment", "id": .string("g\(index)"), "name": .string("garment \(index)")]
        var g = LaundryGarment(id: "g\(index)", name: "garment \(index)")
        func put(_ key: String, _ text: String) { record.appendUnchecked(key, .string(text)) }
        switch random.below(20) {
        case 0: break
        case 1, 2:
            g.category = pick(Domain.categoryNames, &random)
            put("category", g.category!)
        default:
            let sub = pick(Domain.subcategories, &random)
            g.category = sub.category
            g.subcategory = sub.name
            put("category", sub.category)
            put("subcategory", sub.name)
        }
        switch random.below(10) {
        case 0 ..< 3: g.style = "sporty"
        case 3 ..< 8: g.style = pick(Domain.style.values, &random)
        default: break
        }
        if let style = g.style { put("style", style) }
        switch random.below(10) {
        case 0 ..< 3: g.state = "toWash"
        case 3 ..< 5: break
        case 5 ..< 7: g.state = "available"
        default: g.state = pick(Domain.state.values, &random)
        }
        if let state = g.state { put("state", state) }
        var rgb: Int?
        switch random.below(20) {
        case 0 ..< 9: rgb = pick(palette, &random)
        case 9 ..< 17: rgb = random.below(1 << 24)
        case 17: put("color", "navy")
        default: break
        }
        if let rgb {
            let hex = String(rgb, radix: 16)
            put("color", "#" + String(repeating: "0", count: 6 - hex.count) + hex)
            g.colour = GarmentColour(red: UInt8(rgb >> 16), green: UInt8((rgb >> 8) & 0xff), blue: UInt8(rgb & 0xff))
        }
        var composition: [JSONValue] = []
        var left = 100.0
        for _ in 0 ..< random.below(4) where left >= 1 {
            let percent = random.chance(0.2) ? (random.uniform(0.5, left) * 10).rounded(.down) / 10 : Double(random.integer(1 ... Int(left)))
            guard percent > 0 else { continue }
            left -= percent
            let fabric = pick(Domain.fabrics, &random).name
            g.composition.append((fabric, percent))
            composition.append(["fabric": .string(fabric), "percent": percent == percent.rounded() ? .int(Int64(percent)) : .double(percent)])
        }
        if !composition.isEmpty { record.appendUnchecked("composition", .array(composition)) }
        g.care = careCodes(&random)
        record.appendUnchecked("care", .array(g.care.map(JSONValue.string)))
        g.wearsSinceWash = random.chance(0.3) ? 0 : random.integer(1 ... 20)
        record.appendUnchecked("wearsSinceWash", .int(Int64(g.wearsSinceWash)))
        if !random.chance(0.3) {
            let daysAgo = random.integer(0 ... 90)
            g.lastWashedOn = today - daysAgo
            put("lastWashedOn", recentDays[daysAgo])
        }
        if random.chance(0.2) {
            g.weightGrams = random.integer(30 ... 12000)
            record.appendUnchecked("weightGrams", .int(Int64(g.weightGrams!)))
        }
        if random.chance(0.05) {
            g.tags = ["lace"]
            record.appendUnchecked("tags", ["lace"])
        }
        return (record, g)
    }

    /// A care label: usually one washing symbol (sometimes two, read together), sometimes none,
    /// `wash-no` or only professional codes, with bleaching, drying, ironing and professional
    /// symbols around it.
    static func careCodes(_ random: inout SplitMix64) -> [String] {
        var codes: [String] = []
        switch random.below(100) {
        case 0 ..< 6: return []
        case 6 ..< 13:
            codes.append(pick(cleanerCodes, &random))
            if random.chance(0.5) { codes.append(pick(professionalCodes, &random)) }
            return codes
        case 13 ..< 21: codes.append("wash-no")
        case 21 ..< 25: break
        default:
            codes.append(pick(washingCodes, &random))
            if random.chance(0.1) { codes.append(pick(washingCodes, &random)) }
        }
        if random.chance(0.5) { codes.append(pick(bleachingCodes, &random)) }
        if random.chance(0.5) { codes.append(pick(dryingCodes, &random)) }
        if random.chance(0.2) { codes.append(pick(dryingCodes, &random)) }
        if random.chance(0.4) { codes.append(pick(ironingCodes, &random)) }
        if random.chance(0.3) { codes.append(pick(professionalCodes, &random)) }
        if random.chance(0.03) { codes.append("wash-41") }
        return codes
    }

    // MARK: - Checking and shrinking

    /// Runs `violations` on every wardrobe and its plan; for a wardrobe that breaks the property,
    /// fails with its seed, the first violation and the smallest sublist of its garments that
    /// still breaks it (dropping one garment at a time while it does).
    func checkEveryWardrobe(_ property: String, _ violations: Property, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(Self.planned.count, Self.wardrobeCount)
        var failed = 0
        var placedSomewhere = 0
        for (wardrobe, plan) in Self.planned {
            placedSomewhere += plan.loads.count
            let found = violations(wardrobe.garments, wardrobe.capacityGrams, plan)
            guard let first = found.first else { continue }
            failed += 1
            guard failed <= 3 else { continue }
            let breaks = { (indices: [Int]) -> Bool in
                let garments = indices.map { wardrobe.garments[$0] }
                return !violations(garments, wardrobe.capacityGrams, Self.plan(garments, capacityGrams: wardrobe.capacityGrams)).isEmpty
            }
            let smallest = Self.shrink(Array(wardrobe.garments.indices), breaks)
            let garments = smallest.map { wardrobe.garments[$0] }
            let again = violations(garments, wardrobe.capacityGrams, Self.plan(garments, capacityGrams: wardrobe.capacityGrams)).first ?? first
            XCTFail("""
                \(property): seed 0x\(String(wardrobe.seed, radix: 16)), capacity \(wardrobe.capacityGrams) g, \
                \(wardrobe.garments.count) garments: \(first)
                smallest failing list (\(smallest.count) garments, capacity \(wardrobe.capacityGrams) g, today \(ISODate.formatDay(Self.today))): \(again)
                \(smallest.map { JSONWriter.string(wardrobe.records[$0]) }.joined(separator: "\n"))
                """, file: file, line: line)
        }
        if failed > 3 { XCTFail("\(property): \(failed) of \(Self.wardrobeCount) wardrobes in all", file: file, line: line) }
        XCTAssertGreaterThan(placedSomewhere, Self.wardrobeCount, "the wardrobes make loads at all", file: file, line: line)
    }

    /// Greedy one-at-a-time removal: the list no single garment can leave while it still fails.
    static func shrink(_ indices: [Int], _ breaks: ([Int]) -> Bool) -> [Int] {
        var current = indices
        var i = 0
        while i < current.count {
            var candidate = current
            candidate.remove(at: i)
            if breaks(candidate) { current = candidate } else { i += 1 }
        }
        return current
    }

    // MARK: - Properties

    /// (a) No load is hotter than any of its garments' labels allow.
    func testNoLoadIsHotterThanAnyLabelInIt() { checkEveryWardrobe("temperature", Self.tooHot) }

    /// (b) No garment that must not be washed, nor one for the cleaner only, nor one washed by
    /// hand only, goes into a machine; and nothing that must not be washed goes into a basin.
    func testNoUnwashableOrHandWashOnlyGarmentInAMachine() { checkEveryWardrobe("machine", Self.wrongInMachine) }

    /// (c) Every ready garment is in exactly one load or left out exactly once with a reason;
    /// no other garment turns up anywhere.
    func testEveryReadyGarmentIsPlacedOrLeftOutExactlyOnce() { checkEveryWardrobe("placement", Self.misplaced) }

    /// (d) Every machine or basin load fits the machine.
    func testEveryWashingLoadFitsTheMachine() { checkEveryWardrobe("capacity", Self.overweight) }

    /// (e) Every planned load passes the check hand-made loads go through, breaking no label.
    func testEveryPlannedLoadPassesLoadCheck() { checkEveryWardrobe("load check", Self.labelBroken) }

    /// (f) The same garments in the same order give the same records.
    func testPlanningTwiceGivesTheSameRecords() { checkEveryWardrobe("determinism", Self.notRepeated) }

    /// (g) Every symbol of every load (what its record's `symbols` lists) is a care code.
    func testEveryLoadSymbolIsACareCode() { checkEveryWardrobe("symbols", Self.notCareCodes) }

    /// (h, beyond the brief) A load's symbols, read back, allow no more than its instructions
    /// and temperature: `CareConstraints.codes` promises "never a laxer one".
    func testLoadSymbolsNeverAllowMoreThanTheLoad() { checkEveryWardrobe("symbols no laxer", Self.laxerSymbols) }

    /// Each property (a)–(g) finds what it is about in a plan doctored to break it: none of
    /// them passes whatever the plan.
    func testEachPropertyCatchesADoctoredPlan() {
        func g(_ id: String, _ care: [String], subcategory: String = "tShirt") -> LaundryGarment {
            LaundryGarment(id: id, name: id, subcategory: subcategory, state: "toWash", colour: GarmentColour(hex: "#ffffff"),
                           composition: [("cotton", 100)], care: care, lastWashedOn: Self.today - 3)
        }
        let cool = g("cool", ["wash-30"])
        var hot = LaundryLoad(bin: .whites, garments: [cool], byHand: false)
        XCTAssertTrue(Self.tooHot([cool], 7000, LaundryPlan(loads: [hot], unplaced: [])).isEmpty, "the honest load passes")
        hot.temperatureCelsius = 60
        XCTAssertFalse(Self.tooHot([cool], 7000, LaundryPlan(loads: [hot], unplaced: [])).isEmpty, "(a)")
        XCTAssertFalse(Self.labelBroken([cool], 7000, LaundryPlan(loads: [hot], unplaced: [])).isEmpty, "(e) too hot")

        let scarf = g("scarf", ["wash-hand"])
        var machine = LaundryLoad(bin: .whitesDelicate, garments: [scarf], byHand: true)
        XCTAssertTrue(Self.wrongInMachine([scarf], 7000, LaundryPlan(loads: [machine], unplaced: [])).isEmpty, "by hand it is fine")
        machine.program = .synthetics
        XCTAssertFalse(Self.wrongInMachine([scarf], 7000, LaundryPlan(loads: [machine], unplaced: [])).isEmpty, "(b) hand wash")
        let suit = g("suit", ["wash-no", "pro-p"])
        let washed = LaundryLoad(bin: .whites, garments: [suit], byHand: false)
        XCTAssertFalse(Self.wrongInMachine([suit], 7000, LaundryPlan(loads: [washed], unplaced: [])).isEmpty, "(b) wash-no")
        XCTAssertFalse(Self.labelBroken([suit], 7000, LaundryPlan(loads: [washed], unplaced: [])).isEmpty, "(e) wash-no")

        let tee = g("tee", ["wash-40"])
        var idle = tee
        idle.state = "available"
        idle.wearsSinceWash = 0
        let teeLoad = LaundryLoad(bin: .whites, garments: [tee], byHand: false)
        XCTAssertTrue(Self.misplaced([tee], 7000, LaundryPlan(loads: [teeLoad], unplaced: [])).isEmpty)
        XCTAssertFalse(Self.misplaced([tee], 7000, LaundryPlan(loads: [], unplaced: [])).isEmpty, "(c) forgotten")
        XCTAssertFalse(Self.misplaced([tee], 7000, LaundryPlan(loads: [teeLoad], unplaced: [UnplacedGarment(id: "tee", name: "tee", reason: "twice")])).isEmpty, "(c) twice")
        XCTAssertFalse(Self.misplaced([tee], 7000, LaundryPlan(loads: [], unplaced: [UnplacedGarment(id: "tee", name: "tee", reason: "")])).isEmpty, "(c) no reason")
        XCTAssertFalse(Self.misplaced([idle], 7000, LaundryPlan(loads: [LaundryLoad(bin: .whites, garments: [idle], byHand: false)], unplaced: [])).isEmpty, "(c) not ready")

        let jeans = (1 ... 3).map { g("j\($0)", ["wash-40"], subcategory: "jeans") }
        let heavy = LaundryLoad(bin: .denim, garments: jeans, byHand: false)
        XCTAssertTrue(Self.overweight(jeans, 2100, LaundryPlan(loads: [heavy], unplaced: [])).isEmpty, "3 × 700 g fit 2.1 kg")
        XCTAssertFalse(Self.overweight(jeans, 2000, LaundryPlan(loads: [heavy], unplaced: [])).isEmpty, "(d)")

        XCTAssertTrue(Self.notRepeated([tee], 7000, Self.plan([tee], capacityGrams: 7000)).isEmpty)
        XCTAssertFalse(Self.notRepeated([tee], 7000, LaundryPlan(loads: [], unplaced: [])).isEmpty, "(f)")

        XCTAssertFalse(Self.invalidCodes(["wash-40", "wash-41"], in: teeLoad).isEmpty, "(g)")
        XCTAssertTrue(Self.invalidCodes(teeLoad.symbols, in: teeLoad).isEmpty)

        // (h) reads a load's own symbols back, so no doctored load breaks it: only a fault in
        // `CareConstraints.codes` can, such as the hand wash at 30 °C it finds today.
    }

    typealias Property = @Sendable (_ garments: [LaundryGarment], _ capacityGrams: Int, _ plan: LaundryPlan) -> [String]

    static let tooHot: Property = { _, _, plan in
        plan.loads.flatMap { load -> [String] in
            guard let celsius = load.temperatureCelsius else {
                return load.bin == .professional ? [] : ["\(load.bin) load without a temperature"]
            }
            return load.garments.compactMap { g in
                guard let max = g.constraints.maxWashCelsius, celsius > max else { return nil }
                return "\(load.bin)/\(load.program) load at \(celsius) °C holds \(g.id), which allows \(max) °C (\(g.care))"
            }
        }
    }

    static let wrongInMachine: Property = { _, _, plan in
        plan.loads.flatMap { load -> [String] in
            guard load.program != .professional else { return [] }
            return load.garments.compactMap { g in
                let c = g.constraints
                if c.wash == false { return "\(g.id) says wash-no but is in a \(load.program) load (\(g.care))" }
                if c.professionalOnly { return "\(g.id) is for the cleaner only but is in a \(load.program) load (\(g.care))" }
                if load.program.isMachine && c.washProcess == .hand {
                    return "\(g.id) is hand wash only but is in a \(load.program) machine load (\(g.care))"
                }
                return nil
            }
        }
    }

    static let misplaced: Property = { garments, _, plan in
        var seen: [String: Int] = [:]
        for load in plan.loads { for g in load.garments { seen[g.id, default: 0] += 1 } }
        for u in plan.unplaced { seen[u.id, default: 0] += 1 }
        var out: [String] = []
        for u in plan.unplaced where u.reason.isEmpty { out.append("\(u.id) left out without a reason") }
        var known = Set<String>()
        for g in garments {
            known.insert(g.id)
            let times = seen[g.id, default: 0]
            if g.isReadyToWash(on: today) {
                if times != 1 { out.append("ready \(g.id) appears \(times) times") }
            } else if times != 0 {
                out.append("\(g.id) is not ready but appears \(times) times")
            }
        }
        for id in seen.keys.sorted() where !known.contains(id) { out.append("\(id) is not in the wardrobe") }
        return out
    }

    static let overweight: Property = { _, capacityGrams, plan in
        plan.loads.compactMap { load in
            guard !load.bin.isProfessional, load.weightGrams > capacityGrams else { return nil }
            return "\(load.bin)/\(load.program) load of \(load.weightGrams) g in a \(capacityGrams) g machine (\(load.garments.map(\.id)))"
        }
    }

    static let labelBroken: Property = { _, _, plan in
        plan.loads.flatMap { load -> [String] in
            let fresh = LoadCheck(bin: load.bin, program: load.program, temperatureCelsius: load.temperatureCelsius, garments: load.garments).warnings()
            return (fresh + load.warnings).filter(\.breaksLabel).map { "\(load.bin)/\(load.program) load: \($0.message)" }
        }
    }

    static let notRepeated: Property = { garments, capacityGrams, plan in
        let again = LaundryPlannerPropertyTests.plan(garments, capacityGrams: capacityGrams)
        // The JSONWriter output of all the records, as NDJSON bytes; strings only to report.
        func ndjson(_ plan: LaundryPlan) -> [UInt8] {
            var bytes: [UInt8] = []
            for record in plan.records(plannedOn: today) {
                JSONWriter.append(record, to: &bytes)
                bytes.append(0x0A)
            }
            return bytes
        }
        guard ndjson(plan) != ndjson(again) else { return [] }
        let first = plan.records(plannedOn: today).map(JSONWriter.string)
        let second = again.records(plannedOn: today).map(JSONWriter.string)
        let at = (0 ..< min(first.count, second.count)).first { first[$0] != second[$0] } ?? min(first.count, second.count)
        return ["record \(at) differs:\n\(at < first.count ? first[at] : "(none)")\n\(at < second.count ? second[at] : "(none)")"]
    }

    static let notCareCodes: Property = { _, _, plan in
        plan.loads.flatMap { invalidCodes($0.symbols, in: $0) }
    }

    static func invalidCodes(_ symbols: [String], in load: LaundryLoad) -> [String] {
        symbols.filter { CareSymbol.named($0) == nil }.map { "\(load.bin)/\(load.program) load prints \($0), not a care code" }
    }

    static let laxerSymbols: Property = { _, _, plan in
        plan.loads.flatMap { load -> [String] in
            let rules = load.instructions
            let back = CareConstraints(codes: load.symbols)
            var wrong: [String] = []
            if back.wash != rules.wash { wrong.append("wash \(String(describing: back.wash)) for \(String(describing: rules.wash))") }
            if rules.wash != false, load.program != .professional {
                if let celsius = load.temperatureCelsius, (back.maxWashCelsius ?? .max) > celsius {
                    wrong.append("up to \(back.maxWashCelsius.map { "\($0)" } ?? "any") °C in a \(celsius) °C load")
                }
                if let process = rules.washProcess, (back.washProcess ?? .normal) < process {
                    wrong.append("process \(String(describing: back.washProcess)) for \(process)")
                }
            }
            if let bleach = rules.bleach, (back.bleach ?? .any) < bleach { wrong.append("bleach \(String(describing: back.bleach)) for \(bleach)") }
            if rules.iron == false, back.iron != false { wrong.append("ironing allowed") }
            if let max = rules.maxIronCelsius, rules.iron != false, (back.maxIronCelsius ?? .max) > max { wrong.append("iron up to \(String(describing: back.maxIronCelsius)) for \(max)") }
            if rules.tumbleDry == false, back.tumbleDry != false { wrong.append("tumble drying allowed") }
            if let heat = rules.maxTumbleHeat, rules.tumbleDry != false, (back.maxTumbleHeat ?? .high) > heat { wrong.append("tumble \(String(describing: back.maxTumbleHeat)) for \(heat)") }
            if rules.dryClean == false, back.dryClean != false { wrong.append("dry cleaning allowed") }
            guard !wrong.isEmpty else { return [] }
            return ["\(load.bin)/\(load.program) load \(load.garments.map(\.id)) prints \(load.symbols): \(wrong.joined(separator: "; "))"]
        }
    }

    /// The garment records the failures print read back as the garments the properties were
    /// checked on (every tenth wardrobe: reading is the slow part).
    func testGarmentRecordsReadAsGenerated() {
        var read = 0
        for (wardrobe, _) in Self.planned where wardrobe.seed % 10 == 0 {
            for (record, garment) in zip(wardrobe.records, wardrobe.garments) {
                read += 1
                XCTAssertEqual(LaundryGarment(record: record), garment, "seed 0x\(String(wardrobe.seed, radix: 16)): \(JSONWriter.string(record))")
            }
        }
        XCTAssertGreaterThan(read, 1000)
    }

    /// The generator reaches the cases the properties are about; a generator that never made
    /// a hand-wash load or an unplaced garment would let them pass vacuously.
    func testTheWardrobesCoverEveryKindOfLoad() {
        var bins = Set<LaundryBin>()
        var programs = Set<LaundryProgram>()
        var reasons = Set<String>()
        var splitPiles = 0
        for (_, plan) in Self.planned {
            for load in plan.loads {
                bins.insert(load.bin)
                programs.insert(load.program)
            }
            let loadsByBin = Dictionary(grouping: plan.loads.filter { $0.program.isMachine }, by: \.bin)
            splitPiles += loadsByBin.values.filter { $0.count > 1 }.count
            for u in plan.unplaced { reasons.insert(u.reason) }
        }
        XCTAssertEqual(bins, Set(LaundryBin.allCases))
        XCTAssertEqual(programs, Set(LaundryProgram.allCases))
        XCTAssertGreaterThan(splitPiles, 100, "machine piles split over more than one load")
        for prefix in ["do not wash: professional care", "no care information", "no washing symbol", "heavier ("] {
            XCTAssertTrue(reasons.contains { $0.hasPrefix(prefix) }, "no garment left out for \(prefix)…: \(reasons.sorted())")
        }
    }
}


/// Every subcategory the vocabulary knows has what laundry and suggestions need of it.
final class SubcategoryTablesTests: XCTestCase {
    func testEveryKnownSubcategoryHasAWeightAndAFormality() {
        for sub in Domain.subcategories {
            XCTAssertNotNil(GarmentWeights.bySubcategory[sub.name], sub.name)
            if !["lingerie", "other"].contains(sub.category) {
                XCTAssertNotNil(Formality.bySubcategory[sub.name], sub.name)
            }
        }
        XCTAssertEqual(Set(GarmentWeights.bySubcategory.keys), Set(Domain.subcategories.map(\.name)))
    }
}
