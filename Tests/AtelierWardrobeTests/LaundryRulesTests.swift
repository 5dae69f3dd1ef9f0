import AtelierRecords
import XCTest
@testable import AtelierWardrobe

/// The laundry rules, case by case, with every expected value worked out by hand from the rules
/// the doc comments state (`WashReadiness`, `LaundrySorter`, `LaundryColorGroup`, `LaundryLoad`,
/// `LoadCheck`, `CareConstraints.codes`), never read back from the code under test.
final class LaundryRulesTests: XCTestCase {
    /// 2026-03-01.
    static let today = ISODate.dayNumber(year: 2026, month: 3, day: 1)
    var today: Int { Self.today }

    static let white = GarmentColour(hex: "#ffffff")!
    static let black = GarmentColour(hex: "#111111")!
    static let lightBlue = GarmentColour(hex: "#aec6e8")!
    static let red = GarmentColour(hex: "#c8102e")!

    // MARK: - Readiness

    func testMarkedToWashIsReadyWhateverItsWears() {
        let coat = LaundryGarment(id: "c1", name: "coat", subcategory: "coat", state: "toWash", wearsSinceWash: 0, lastWashedOn: today)
        XCTAssertEqual(coat.washReadiness(on: today), .marked)
        XCTAssertTrue(coat.isReadyToWash(on: today))
    }

    func testWornAsOftenAsItsSubcategoryAllows() {
        // tShirt: 1 wear.
        let tee = LaundryGarment(id: "t1", name: "tee", subcategory: "tShirt", wearsSinceWash: 1, lastWashedOn: today - 1)
        XCTAssertEqual(tee.washReadiness(on: today), .wornEnough(wears: 1, limit: 1))
        // jeans: 6 wears; 5 wears a week after a wash is not enough.
        var jeans = LaundryGarment(id: "j1", name: "jeans", subcategory: "jeans", wearsSinceWash: 5, lastWashedOn: today - 7)
        XCTAssertNil(jeans.washReadiness(on: today))
        jeans.wearsSinceWash = 6
        XCTAssertEqual(jeans.washReadiness(on: today), .wornEnough(wears: 6, limit: 6))
        jeans.wearsSinceWash = 9
        XCTAssertEqual(jeans.washReadiness(on: today), .wornEnough(wears: 9, limit: 6))
        // No subcategory: the category's default (outerwear 10).
        var anorak = LaundryGarment(id: "o1", name: "anorak", category: "outerwear", wearsSinceWash: 9, lastWashedOn: today - 1)
        XCTAssertNil(anorak.washReadiness(on: today))
        anorak.wearsSinceWash = 10
        XCTAssertEqual(anorak.washReadiness(on: today), .wornEnough(wears: 10, limit: 10))
        // An unknown subcategory falls back to the category (bottom 4), and nothing known to 3.
        let kilt = LaundryGarment(id: "k1", name: "kilt", category: "bottom", subcategory: "kilt", wearsSinceWash: 4, lastWashedOn: today - 1)
        XCTAssertEqual(kilt.washReadiness(on: today), .wornEnough(wears: 4, limit: 4))
        let thing = LaundryGarment(id: "x1", name: "thing", wearsSinceWash: 2, lastWashedOn: today - 1)
        XCTAssertNil(thing.washReadiness(on: today))
        XCTAssertEqual(LaundryGarment(id: "x2", name: "thing", wearsSinceWash: 3, lastWashedOn: today - 1).washReadiness(on: today),
                       .wornEnough(wears: 3, limit: 3))
    }

    func testWornSinceAWashThirtyOrMoreDaysAgo() {
        var jeans = LaundryGarment(id: "j1", name: "jeans", subcategory: "jeans", wearsSinceWash: 1, lastWashedOn: today - 30)
        XCTAssertEqual(jeans.washReadiness(on: today), .stale(days: 30))
        jeans.lastWashedOn = today - 29
        XCTAssertNil(jeans.washReadiness(on: today))
        jeans.lastWashedOn = today - 100
        XCTAssertEqual(jeans.washReadiness(on: today), .stale(days: 100))
    }

    func testWornAndNeverWashedIsStale() {
        let jeans = LaundryGarment(id: "j1", name: "jeans", subcategory: "jeans", wearsSinceWash: 1)
        XCTAssertEqual(jeans.washReadiness(on: today), .stale(days: nil))
    }

    func testDryingOnLoanAndUnderRepairAreNeverReady() {
        for state in ["drying", "onLoan", "underRepair"] {
            let tee = LaundryGarment(id: "t1", name: "tee", subcategory: "tShirt", state: state, wearsSinceWash: 12)
            XCTAssertNil(tee.washReadiness(on: today), state)
            XCTAssertFalse(tee.isReadyToWash(on: today), state)
        }
        // The same garment, available, is ready.
        let tee = LaundryGarment(id: "t1", name: "tee", subcategory: "tShirt", state: "available", wearsSinceWash: 12)
        XCTAssertEqual(tee.washReadiness(on: today), .wornEnough(wears: 12, limit: 1))
    }

    func testNotWornIsNotReadyHoweverLongAgoItWasWashed() {
        XCTAssertNil(LaundryGarment(id: "t1", name: "tee", subcategory: "tShirt", wearsSinceWash: 0).washReadiness(on: today))
        XCTAssertNil(LaundryGarment(id: "j1", name: "jeans", subcategory: "jeans", wearsSinceWash: 0, lastWashedOn: today - 400).washReadiness(on: today))
    }

    func testReadinessFromAGarmentRecord() throws {
        // 2026-01-01 is 31 + 28 = 59 days before 2026-03-01.
        let record: JSONObject = ["id": "g7", "subcategory": "jeans", "wearsSinceWash": 2, "lastWashedOn": "2026-01-01",
                                  "color": "navy", "care": ["wash-40", "wash-41"]]
        let jeans = try XCTUnwrap(LaundryGarment(record: record))
        XCTAssertEqual(jeans.name, "g7", "the id stands in for a missing name")
        XCTAssertNil(jeans.colour, "a colour that is not #rrggbb is unknown")
        XCTAssertEqual(jeans.constraints.maxWashCelsius, 40, "the misspelt code is ignored")
        XCTAssertEqual(jeans.washReadiness(on: today), .stale(days: 59))
        XCTAssertNil(LaundryGarment(record: ["name": "no id"]))
    }

    // MARK: - Sorting

    func testProfessionalCareComesFirst() {
        let coat = LaundryGarment(id: "c1", name: "coat", subcategory: "coat", colour: Self.black,
                                  composition: [("polyester", 95), ("leather", 5)], care: ["pro-p"])
        XCTAssertEqual(LaundrySorter.placement(of: coat), .bin(.professional))

        let suit = LaundryGarment(id: "s1", name: "suit", subcategory: "suit", colour: Self.black,
                                  composition: [("wool", 100)], care: ["wash-no", "pro-p"])
        XCTAssertEqual(LaundrySorter.placement(of: suit), .bin(.professional), "wash-no beats the wool rule")

        let blazer = LaundryGarment(id: "b1", name: "blazer", subcategory: "blazer", composition: [("cotton", 100)], care: ["pro-f", "iron-low"])
        XCTAssertEqual(LaundrySorter.placement(of: blazer), .bin(.professional), "only professional cleaning allowed")
    }

    func testNotWashableAndNoCleanerIsNotPlaced() {
        let sneakers = LaundryGarment(id: "n1", name: "sneakers", subcategory: "sneakers", colour: Self.white,
                                      composition: [("leather", 100)], care: ["wash-no"])
        guard case .notPlaced(let reason) = LaundrySorter.placement(of: sneakers) else {
            return XCTFail("leather sneakers that say wash-no must not be placed: \(LaundrySorter.placement(of: sneakers))")
        }
        XCTAssertTrue(reason.hasPrefix("do not wash: professional care"), reason)

        // Leather with a washing symbol still goes to a specialist.
        let gloves = LaundryGarment(id: "g1", name: "gloves", subcategory: "gloves", composition: [("leather", 60), ("wool", 40)], care: ["wash-30"])
        guard case .notPlaced(let gloveReason) = LaundrySorter.placement(of: gloves) else {
            return XCTFail("leather gloves: \(LaundrySorter.placement(of: gloves))")
        }
        XCTAssertTrue(gloveReason.hasPrefix("do not wash: professional care"), gloveReason)

        let top = LaundryGarment(id: "t1", name: "top", composition: [("viscose", 100)], care: ["wash-no"])
        XCTAssertEqual(LaundrySorter.placement(of: top), .notPlaced(reason: "do not wash: professional care"))
    }

    func testNoCareInformation() {
        let tee = LaundryGarment(id: "t1", name: "tee", subcategory: "tShirt", colour: Self.white, composition: [("cotton", 100)])
        XCTAssertEqual(LaundrySorter.placement(of: tee), .notPlaced(reason: "no care information"))
        let bleachOnly = LaundryGarment(id: "t2", name: "tee", composition: [("cotton", 100)], care: ["bleach-no", "wring-no"])
        XCTAssertEqual(LaundrySorter.placement(of: bleachOnly), .notPlaced(reason: "no washing symbol on its care label"))
    }

    func testWoolBeatsDenim() {
        let woolJeans = LaundryGarment(id: "w1", name: "wool jeans", subcategory: "jeans", colour: Self.black,
                                       composition: [("denim", 80), ("wool", 20)], care: ["wash-30"])
        XCTAssertEqual(LaundrySorter.placement(of: woolJeans), .bin(.woolAndCashmere))
        let sweater = LaundryGarment(id: "w2", name: "sweater", subcategory: "sweater", colour: Self.white,
                                     composition: [("cotton", 80), ("wool", 20)], care: ["wash-30"])
        XCTAssertEqual(LaundrySorter.placement(of: sweater), .bin(.woolAndCashmere))
        // 9.5 % cashmere is under the 10 % line: the jeans rule applies.
        let almost = LaundryGarment(id: "w3", name: "jeans", subcategory: "jeans", composition: [("cotton", 90.5), ("cashmere", 9.5)], care: ["wash-30"])
        XCTAssertEqual(LaundrySorter.placement(of: almost), .bin(.denim))
    }

    func testDenim() {
        let jeans = LaundryGarment(id: "j1", name: "jeans", subcategory: "jeans", colour: Self.lightBlue, composition: [("cotton", 100)], care: ["wash-40"])
        XCTAssertEqual(LaundrySorter.placement(of: jeans), .bin(.denim))
        let skirt = LaundryGarment(id: "s1", name: "skirt", subcategory: "skirt", colour: Self.white, composition: [("denim", 50), ("cotton", 50)], care: ["wash-40"])
        XCTAssertEqual(LaundrySorter.placement(of: skirt), .bin(.denim))
        let lessDenim = LaundryGarment(id: "s2", name: "skirt", subcategory: "skirt", colour: Self.white, composition: [("denim", 49), ("cotton", 51)], care: ["wash-40"])
        XCTAssertEqual(LaundrySorter.placement(of: lessDenim), .bin(.whites))
    }

    func testActivewearIsSportyAndMostlySynthetic() {
        let leggings = LaundryGarment(id: "a1", name: "leggings", subcategory: "leggings", style: "sporty", colour: Self.white,
                                      composition: [("polyester", 80), ("elastane", 20)], care: ["wash-40"])
        XCTAssertEqual(LaundrySorter.placement(of: leggings), .bin(.activewear))
        let cottonTee = LaundryGarment(id: "a2", name: "tee", subcategory: "tShirt", style: "sporty", colour: Self.white,
                                       composition: [("cotton", 100)], care: ["wash-40"])
        XCTAssertEqual(LaundrySorter.placement(of: cottonTee), .bin(.whites))
        // Half synthetic is not "mostly".
        let half = LaundryGarment(id: "a3", name: "tee", style: "sporty", colour: Self.white,
                                  composition: [("polyester", 50), ("cotton", 50)], care: ["wash-40"])
        XCTAssertEqual(LaundrySorter.placement(of: half), .bin(.whites))
        // Casual polyester is not activewear either.
        let casual = LaundryGarment(id: "a4", name: "shirt", style: "casual", colour: Self.white, composition: [("polyester", 100)], care: ["wash-40"])
        XCTAssertEqual(LaundrySorter.placement(of: casual), .bin(.whites))
    }

    func testColourBinsNormalAndDelicate() {
        let tee = LaundryGarment(id: "c1", name: "tee", colour: Self.white, composition: [("cotton", 100)], care: ["wash-40"])
        XCTAssertEqual(LaundrySorter.placement(of: tee), .bin(.whites))
        let blouse = LaundryGarment(id: "c2", name: "blouse", colour: Self.black, composition: [("silk", 100)], care: ["wash-30"])
        XCTAssertEqual(LaundrySorter.placement(of: blouse), .bin(.darksDelicate), "silk is delicate")
        let shirt = LaundryGarment(id: "c3", name: "shirt", colour: Self.lightBlue, composition: [("cotton", 100)], care: ["wash-30-mild"])
        XCTAssertEqual(LaundrySorter.placement(of: shirt), .bin(.pastelsDelicate), "a mild process is delicate")
        let top = LaundryGarment(id: "c4", name: "top", colour: Self.red, composition: [("cotton", 100)], care: ["wash-40"], tags: ["Lace"])
        XCTAssertEqual(LaundrySorter.placement(of: top), .bin(.vibrantDelicate), "a lace tag is delicate")
        let unknown = LaundryGarment(id: "c5", name: "tee", composition: [("cotton", 100)], care: ["wash-40"])
        XCTAssertEqual(LaundrySorter.placement(of: unknown), .bin(.darks), "an unknown colour goes with the darks")
        let byHand = LaundryGarment(id: "c6", name: "scarf", colour: Self.white, composition: [("viscose", 100)], care: ["wash-hand"])
        XCTAssertEqual(LaundrySorter.placement(of: byHand), .bin(.whitesDelicate), "hand wash is delicate")
    }

    // MARK: - Colour

    func testEverydayColourGroups() {
        // #ffffff: L* 100, C* 0. #111111: L* about 5. #aec6e8: L* about 79, C* about 20.
        // #c8102e: L* about 42, C* about 75, hue about 28°.
        XCTAssertEqual(Self.white.laundryGroup, .whites)
        XCTAssertEqual(Self.black.laundryGroup, .darks)
        XCTAssertEqual(Self.lightBlue.laundryGroup, .pastels)
        XCTAssertEqual(Self.red.laundryGroup, .vibrant)
        XCTAssertTrue(Self.red.isRed)
        XCTAssertFalse(Self.white.isRed)
        XCTAssertFalse(Self.black.isRed)
        XCTAssertFalse(Self.lightBlue.isRed)
        XCTAssertEqual(Self.red.lab.l, 42.5, accuracy: 1)
        XCTAssertEqual(Self.lightBlue.lab.l, 79, accuracy: 1)
        XCTAssertEqual(Self.lightBlue.chroma, 19.5, accuracy: 1)
        XCTAssertEqual(Self.red.hueDegrees, 28.5, accuracy: 1)
    }

    func testHexSpellings() {
        XCTAssertEqual(GarmentColour(hex: "FFFFFF"), Self.white)
        XCTAssertEqual(GarmentColour(hex: "#C8102E"), Self.red)
        XCTAssertEqual(GarmentColour(hex: "#c8102e"), GarmentColour(red: 200, green: 16, blue: 46))
        XCTAssertNil(GarmentColour(hex: "#fff"))
        XCTAssertNil(GarmentColour(hex: "#gggggg"))
        XCTAssertNil(GarmentColour(hex: "red"))
    }

    // MARK: - Loads

    private func garment(_ id: String, _ care: [String], colour: GarmentColour? = LaundryRulesTests.white, subcategory: String? = "tShirt",
                         composition: [(fabric: String, percent: Double)] = [("cotton", 100)], lastWashedOn: Int? = LaundryRulesTests.today - 10) -> LaundryGarment {
        LaundryGarment(id: id, name: id, subcategory: subcategory, colour: colour, composition: composition, care: care,
                       wearsSinceWash: 1, lastWashedOn: lastWashedOn)
    }

    func testProgramOfTheGentlestProcess() {
        XCTAssertEqual(LaundryProgram(process: nil), .cotton)
        XCTAssertEqual(LaundryProgram(process: .normal), .cotton)
        XCTAssertEqual(LaundryProgram(process: .mild), .synthetics)
        XCTAssertEqual(LaundryProgram(process: .veryMild), .delicate)
        XCTAssertEqual(LaundryProgram(process: .hand), .handWash)

        let normal = LaundryLoad(bin: .whites, garments: [garment("a", ["wash-60"]), garment("b", ["wash-40"])], byHand: false)
        XCTAssertEqual(normal.program, .cotton)
        XCTAssertEqual(normal.temperatureCelsius, 40)
        let mild = LaundryLoad(bin: .whitesDelicate, garments: [garment("a", ["wash-60"]), garment("b", ["wash-40-mild"])], byHand: false)
        XCTAssertEqual(mild.program, .synthetics)
        XCTAssertEqual(mild.temperatureCelsius, 40)
        let veryMild = LaundryLoad(bin: .whitesDelicate, garments: [garment("a", ["wash-40-mild"]), garment("b", ["wash-30-very-mild"])], byHand: false)
        XCTAssertEqual(veryMild.program, .delicate)
        XCTAssertEqual(veryMild.temperatureCelsius, 30)
        let wool = LaundryLoad(bin: .woolAndCashmere, garments: [garment("a", ["wash-40"], composition: [("wool", 100)])], byHand: false)
        XCTAssertEqual(wool.program, .wool)
        XCTAssertEqual(wool.temperatureCelsius, 40)
        let cleaner = LaundryLoad(bin: .professional, garments: [garment("a", ["wash-no", "pro-p"])], byHand: false)
        XCTAssertEqual(cleaner.program, .professional)
        XCTAssertNil(cleaner.temperatureCelsius)
    }

    func testTemperatureIsTheLowestMaximumElseTheProgramDefault() {
        let mixed = LaundryLoad(bin: .whites, garments: [garment("a", ["wash-95"]), garment("b", ["wash-machine"]), garment("c", ["wash-50"]), garment("d", ["wash-60"])], byHand: false)
        XCTAssertEqual(mixed.temperatureCelsius, 50)
        let anyCotton = LaundryLoad(bin: .whites, garments: [garment("a", ["wash-machine"])], byHand: false)
        XCTAssertEqual(anyCotton.program, .cotton)
        XCTAssertEqual(anyCotton.temperatureCelsius, 40)
        let anyDelicate = LaundryLoad(bin: .whitesDelicate, garments: [garment("a", ["wash-machine-delicate"])], byHand: false)
        XCTAssertEqual(anyDelicate.program, .delicate)
        XCTAssertEqual(anyDelicate.temperatureCelsius, 30)
        let anyWool = LaundryLoad(bin: .woolAndCashmere, garments: [garment("a", ["wash-machine"], composition: [("merino", 100)])], byHand: false)
        XCTAssertEqual(anyWool.temperatureCelsius, 30)
        let cold = LaundryLoad(bin: .whitesDelicate, garments: [garment("a", ["wash-hand"]), garment("b", ["wash-hand-ambient"])], byHand: true)
        XCTAssertEqual(cold.program, .handWash)
        XCTAssertEqual(cold.temperatureCelsius, 20)
    }

    func testHandWashGoesInALoadOfItsOwn() {
        var planner = LaundryPlanner(capacityGrams: 7000, today: today)
        let machine = LaundryGarment(id: "w1", name: "jumper", subcategory: "sweater", state: "toWash", colour: Self.black,
                                     composition: [("wool", 100)], care: ["wash-30"], lastWashedOn: today - 3)
        let byHand = LaundryGarment(id: "w2", name: "cardigan", subcategory: "cardigan", state: "toWash", colour: Self.black,
                                    composition: [("cashmere", 100)], care: ["wash-hand"], lastWashedOn: today - 3)
        XCTAssertTrue(planner.add(machine))
        XCTAssertTrue(planner.add(byHand))
        let plan = planner.plan()
        XCTAssertEqual(plan.unplaced, [])
        XCTAssertEqual(plan.loads.count, 2)
        guard plan.loads.count == 2 else { return }
        XCTAssertEqual(plan.loads[0].bin, .woolAndCashmere)
        XCTAssertEqual(plan.loads[0].program, .wool)
        XCTAssertEqual(plan.loads[0].garments.map(\.id), ["w1"])
        XCTAssertEqual(plan.loads[0].temperatureCelsius, 30)
        XCTAssertEqual(plan.loads[1].bin, .woolAndCashmere)
        XCTAssertEqual(plan.loads[1].program, .handWash)
        XCTAssertEqual(plan.loads[1].garments.map(\.id), ["w2"])
        XCTAssertEqual(plan.loads[1].temperatureCelsius, 40)
        XCTAssertEqual(plan.loads[1].warnings.map(\.kind), [.handWashOnly])
    }

    func testCapacitySplitsAPileAndLeavesOutWhatNoMachineTakes() {
        // Three 700 g jeans in a 1.5 kg machine: 700 + 700 fits, the third starts a new load.
        var planner = LaundryPlanner(capacityGrams: 1500, today: today)
        for id in ["j1", "j2", "j3"] {
            planner.add(LaundryGarment(id: id, name: id, subcategory: "jeans", state: "toWash", composition: [("cotton", 100)], care: ["wash-40"]))
        }
        planner.add(LaundryGarment(id: "k1", name: "duvet cover", state: "toWash", colour: Self.white, care: ["wash-60"], weightGrams: 1600))
        // Too heavy for the machine, but the cleaner takes any weight.
        planner.add(LaundryGarment(id: "p1", name: "coat", state: "toWash", care: ["pro-p"], weightGrams: 2500))
        let plan = planner.plan()
        XCTAssertEqual(plan.loads.map(\.bin), [.denim, .denim, .professional])
        XCTAssertEqual(plan.loads.map { $0.garments.map(\.id) }, [["j1", "j2"], ["j3"], ["p1"]])
        XCTAssertEqual(plan.loads.map(\.weightGrams), [1400, 700, 2500])
        XCTAssertEqual(plan.unplaced.map(\.id), ["k1"])
        XCTAssertEqual(plan.unplaced.first?.reason, "heavier (1.6 kg) than the machine takes (1.5 kg)")
    }

    func testLoadSymbolsAreValidCodesAndTheStrictest() {
        let load = LaundryLoad(bin: .whites, garments: [
            garment("a", ["wash-60", "bleach-any", "tumble-normal", "iron-high"]),
            garment("b", ["wash-40", "bleach-no", "tumble-low", "iron-medium"]),
            garment("c", ["wash-95", "bleach-non-chlorine", "tumble-normal", "iron-low"]),
        ], byHand: false)
        XCTAssertEqual(load.program, .cotton)
        XCTAssertEqual(load.temperatureCelsius, 40)
        XCTAssertEqual(load.symbols, ["wash-40", "bleach-no", "tumble-low", "iron-low"])
        for code in load.symbols { XCTAssertNotNil(CareSymbol.named(code), code) }

        let delicate = LaundryLoad(bin: .darksDelicate, garments: [
            garment("a", ["wash-30-very-mild", "wring-no", "tumble-no", "dry-flat-shade", "iron-no", "pro-p-mild"], colour: Self.black),
            garment("b", ["wash-40-mild", "bleach-no", "tumble-low", "iron-low", "pro-f"], colour: Self.black),
        ], byHand: false)
        XCTAssertEqual(delicate.program, .delicate)
        XCTAssertEqual(delicate.temperatureCelsius, 30)
        // Solvents P+F with F leave F; the mild process of pro-p-mild stays.
        XCTAssertEqual(delicate.symbols, ["wash-30-very-mild", "wring-no", "bleach-no", "tumble-no", "dry-flat-shade", "iron-no", "pro-f-mild"])
        for code in delicate.symbols { XCTAssertNotNil(CareSymbol.named(code), code) }

        // "Any temperature" labels print the temperature the load takes.
        let any = LaundryLoad(bin: .whitesDelicate, garments: [garment("a", ["wash-machine-permanent-press"])], byHand: false)
        XCTAssertEqual(any.symbols, ["wash-40-mild"])
    }

    func testTheLoadRecord() {
        let load = LaundryLoad(bin: .whites, garments: [garment("a", ["wash-60"]), garment("b", ["wash-40", "bleach-no"])], byHand: false)
        let record = load.record(plannedOn: today)
        XCTAssertEqual(JSONWriter.string(record), """
            {"type":"laundry","bin":"whites","program":"cotton","temperature":40,"durationMinutes":150,"weightGrams":360,"garments":["a","b"],"symbols":["wash-40","bleach-no"],"warnings":[],"status":"planned","plannedOn":"2026-03-01","instructions":{"wash":true,"maxWashCelsius":40,"washProcess":"normal","bleach":"none"}}
            """)
    }

    // MARK: - Load checks

    private func kinds(_ check: LoadCheck) -> [LaundryWarning.Kind] { check.warnings().map(\.kind) }

    func testDoNotWashInAWashingLoadBreaksTheLabel() throws {
        let suit = garment("s1", ["wash-no", "pro-p"], colour: Self.white)
        let warnings = LoadCheck(bin: .whites, program: .cotton, temperatureCelsius: 40, garments: [suit, garment("t1", ["wash-40"])]).warnings()
        let first = try XCTUnwrap(warnings.first)
        XCTAssertEqual(first.kind, .doNotWash)
        XCTAssertTrue(first.breaksLabel)
        XCTAssertEqual(first.garments, ["s1"])
        XCTAssertEqual(first.message, "do not wash (wash-no) but in a washing load: s1 (s1) says wash-no")
        XCTAssertEqual(warnings.filter(\.breaksLabel).count, 1, "\(warnings)")
        // By hand is washing too.
        XCTAssertTrue(kinds(LoadCheck(bin: .whites, program: .handWash, temperatureCelsius: 30, garments: [suit])).contains(.doNotWash))
    }

    func testTooHotForALabelBreaksIt() {
        let warnings = LoadCheck(bin: .whites, program: .cotton, temperatureCelsius: 60,
                                 garments: [garment("hot", ["wash-60"]), garment("cool", ["wash-30"]), garment("any", ["wash-machine"])]).warnings()
        XCTAssertEqual(warnings.map(\.kind), [.temperatureTooHigh])
        XCTAssertEqual(warnings.first?.garments, ["cool"])
        XCTAssertEqual(warnings.first?.breaksLabel, true)
        XCTAssertEqual(warnings.first?.message, "temperature too high: the load is 60 °C: cool (cool) says wash-30")
        // At exactly the label's maximum it is fine.
        XCTAssertEqual(kinds(LoadCheck(bin: .whites, program: .cotton, temperatureCelsius: 30, garments: [garment("cool", ["wash-30"])])), [])
        // A hand-wash label allows 40 °C in the basin, not 50.
        XCTAssertEqual(kinds(LoadCheck(bin: .whitesDelicate, program: .handWash, temperatureCelsius: 50, garments: [garment("h", ["wash-hand"])])),
                       [.temperatureTooHigh, .handWashOnly])
    }

    func testHandWashOnlyInAMachineBreaksTheLabel() {
        let scarf = garment("h1", ["wash-hand"])
        let warnings = LoadCheck(bin: .whitesDelicate, program: .synthetics, temperatureCelsius: 30, garments: [scarf]).warnings()
        XCTAssertEqual(warnings.first?.kind, .handWashInMachine)
        XCTAssertEqual(warnings.first?.breaksLabel, true)
        XCTAssertEqual(warnings.first?.garments, ["h1"])
        XCTAssertEqual(warnings.first?.message, "hand wash only but in a machine load: h1 (h1) says wash-hand")
        // The same garment by hand: no label broken, just the reminder.
        XCTAssertEqual(kinds(LoadCheck(bin: .whitesDelicate, program: .handWash, temperatureCelsius: 30, garments: [scarf])), [.handWashOnly])
        // A hand-made load without a program is taken for a machine load.
        XCTAssertEqual(LoadCheck(bin: .whitesDelicate, program: nil, temperatureCelsius: 30, garments: [scarf]).warnings().first?.kind, .handWashInMachine)
    }

    func testEmptyLoad() {
        let warnings = LoadCheck(bin: .darks, program: .cotton, temperatureCelsius: 40, garments: []).warnings()
        XCTAssertEqual(warnings, [LaundryWarning(.emptyLoad, garments: [], message: "empty load: it has no garments")])
        XCTAssertFalse(warnings[0].breaksLabel)
    }

    func testNotDryCleanableAtTheCleanerBreaksTheLabel() {
        let jacket = garment("p1", ["wash-no", "pro-no"])
        let warnings = LoadCheck(bin: .professional, program: .professional, temperatureCelsius: nil, garments: [jacket]).warnings()
        XCTAssertEqual(warnings.map(\.kind), [.doNotDryClean])
        XCTAssertEqual(warnings.first?.breaksLabel, true)
        // Not dry-cleanable but wet-cleanable is fine at the cleaner.
        XCTAssertEqual(kinds(LoadCheck(bin: .professional, program: nil, temperatureCelsius: nil, garments: [garment("p2", ["wash-no", "pro-no", "pro-w"])])), [])
    }

    func testMeshBagForLingerieHosieryAndDelicates() {
        let bra = garment("bra", ["wash-40"], subcategory: "bra")
        let tights = garment("tights", ["wash-40"], subcategory: "tights")
        let blouse = garment("blouse", ["wash-40"], subcategory: "blouse", composition: [("silk", 100)])
        let tee = garment("tee", ["wash-40"])
        let warnings = LoadCheck(bin: .whites, program: .cotton, temperatureCelsius: 40, garments: [tee, bra, tights, blouse]).warnings()
        XCTAssertEqual(warnings.map(\.kind), [.meshBag])
        XCTAssertEqual(warnings.first?.garments, ["bra", "tights", "blouse"])
        // No mesh bag in a basin.
        XCTAssertEqual(kinds(LoadCheck(bin: .whites, program: .handWash, temperatureCelsius: 30, garments: [bra])), [.handWashOnly])
    }

    func testNeverWashedDarksMayBleed() {
        let newBlack = garment("new", ["wash-40"], colour: Self.black, lastWashedOn: nil)
        let oldBlack = garment("old", ["wash-40"], colour: Self.black)
        let newWhite = garment("white", ["wash-40"], colour: Self.white, lastWashedOn: nil)
        let warnings = LoadCheck(bin: .darks, program: .cotton, temperatureCelsius: 40, garments: [oldBlack, newBlack, newWhite]).warnings()
        XCTAssertEqual(warnings.map(\.kind), [.colorBleeding])
        XCTAssertEqual(warnings.first?.garments, ["new"])
        XCTAssertEqual(kinds(LoadCheck(bin: .darks, program: .cotton, temperatureCelsius: 40, garments: [oldBlack])), [])
    }

    func testRedWithWhiteInAHandMadeLoad() {
        let red = garment("red", ["wash-40"], colour: Self.red)
        let white = garment("white", ["wash-40"], colour: Self.white)
        let black = garment("black", ["wash-40"], colour: Self.black)
        let warnings = LoadCheck(bin: nil, program: nil, temperatureCelsius: 40, garments: [white, black, red]).warnings()
        XCTAssertEqual(warnings.map(\.kind), [.colorBleeding])
        XCTAssertEqual(warnings.first?.garments, ["red", "white"])
        XCTAssertFalse(warnings.contains(where: \.breaksLabel))
        XCTAssertEqual(kinds(LoadCheck(bin: nil, program: nil, temperatureCelsius: 40, garments: [red, black])), [])
    }

    func testLabelBreakingWarningsComeFirst() {
        let newBlack = garment("new", ["wash-40"], colour: Self.black, lastWashedOn: nil)
        let silk = garment("silk", ["wash-no", "pro-p"], colour: Self.black)
        let unknown = garment("unknown", ["wash-40"], colour: nil)
        let found = kinds(LoadCheck(bin: .darks, program: .cotton, temperatureCelsius: 40, garments: [newBlack, unknown, silk]))
        XCTAssertEqual(found, [.doNotWash, .colorBleeding, .colorUnknown])
    }

    func testOverCapacity() {
        let jeans = garment("j", ["wash-40"], subcategory: "jeans")
        let sweater = garment("s", ["wash-40"], subcategory: "sweater")
        let warnings = LoadCheck(bin: .darks, program: .cotton, temperatureCelsius: 40, garments: [jeans, sweater], capacityGrams: 1000).warnings()
        XCTAssertEqual(warnings.map(\.kind), [.overCapacity])
        XCTAssertEqual(warnings.first?.message, "over capacity: 1.2 kg in a 1 kg machine")
        XCTAssertEqual(kinds(LoadCheck(bin: .darks, program: .cotton, temperatureCelsius: 40, garments: [jeans, sweater], capacityGrams: 1200)), [])
    }

    // MARK: - Constraints back to codes

    /// Every single washing, bleaching and ironing symbol says the same thing when its
    /// constraints are printed back as codes.
    func testEverySingleSymbolSaysItselfBack() {
        let families: Set<CareSymbol.Family> = [.washing, .bleaching, .ironing]
        var checked = 0
        for symbol in CareSymbol.all where families.contains(symbol.family) {
            checked += 1
            let original = symbol.constraints
            let said = original.codes
            XCTAssertFalse(said.isEmpty, "\(symbol.code) prints no code")
            for code in said { XCTAssertNotNil(CareSymbol.named(code), "\(symbol.code) prints \(code), not a care code") }
            let back = CareConstraints(codes: said)
            let context = "\(symbol.code) → \(said)"
            switch symbol.family {
            case .washing:
                XCTAssertEqual(back.wash, original.wash, context)
                XCTAssertEqual(back.maxWashCelsius, original.maxWashCelsius, context)
                XCTAssertEqual(back.washProcess, original.washProcess, context)
                XCTAssertEqual(back.wring, original.wring, context)
            case .bleaching:
                XCTAssertEqual(back.bleach, original.bleach, context)
            case .ironing:
                XCTAssertEqual(back.iron, original.iron, context)
                XCTAssertEqual(back.maxIronCelsius, original.maxIronCelsius, context)
                XCTAssertEqual(back.steam, original.steam, context)
            default:
                XCTFail("unexpected family \(symbol.family)")
            }
            XCTAssertEqual(back, original, "\(context): nothing else said either")
        }
        XCTAssertEqual(checked, 19 + 4 + 6, "the washing, bleaching and ironing symbols of care-symbols.md")
    }

    /// `codes` promises "the next stricter one …, never a laxer one". A hand wash at 30 °C (a
    /// `wash-hand` label read with a `wash-30` one) has no symbol of its own; `wash-hand` means
    /// up to 40 °C, so the only stricter one is `wash-hand-ambient`.
    func testHandWashAtThirtyIsNotPrintedAsTheLaxerWashHand() {
        var rules = CareConstraints()
        rules.wash = true
        rules.washProcess = .hand
        rules.maxWashCelsius = 30
        let back = CareConstraints(codes: rules.codes)
        XCTAssertLessThanOrEqual(back.maxWashCelsius ?? .max, 30, "hand wash at most 30 °C printed as \(rules.codes)")
        XCTAssertEqual(back.washProcess, .hand)
    }

    /// Any two washing symbols read together, printed back as codes, allow no more than they did.
    func testTwoWashingSymbolsAreNeverPrintedLaxer() {
        let washing = CareSymbol.all.filter { $0.family == .washing }.map(\.code)
        var laxer: [String] = []
        for a in washing {
            for b in washing {
                let rules = CareConstraints(codes: [a, b])
                let said = rules.codes
                let back = CareConstraints(codes: said)
                var wrong: [String] = []
                if back.wash != rules.wash { wrong.append("wash \(String(describing: back.wash))") }
                if back.wring != rules.wring { wrong.append("wring \(String(describing: back.wring))") }
                if rules.wash != false {
                    if let max = rules.maxWashCelsius, (back.maxWashCelsius ?? .max) > max { wrong.append("up to \(back.maxWashCelsius.map { "\($0)" } ?? "any") °C, not \(max)") }
                    if let process = rules.washProcess, (back.washProcess ?? .normal) < process { wrong.append("process \(String(describing: back.washProcess)), not \(process)") }
                }
                if !wrong.isEmpty { laxer.append("[\(a), \(b)] → \(said): \(wrong.joined(separator: "; "))") }
            }
        }
        XCTAssertEqual(laxer, [], "\(laxer.count) pairs printed laxer than they read:\n" + laxer.joined(separator: "\n"))
    }
}
