// swift-tools-version: 6.0
// Atelier: a wardrobe toolkit for Linux, as small Unix filters over NDJSON.
import PackageDescription

/// Hamming distances are most of near-duplicate search (billions of them on 100,000 photos).
/// Swift builds for the first x86-64, which has no POPCNT, and counts bits in a dozen
/// instructions; every x86-64 processor since 2008 has the instruction, so AtelierImaging uses it.
#if arch(x86_64)
let popcount = ["-Xcc", "-mpopcnt"]
let popcountC = ["-mpopcnt"]
#else
let popcount: [String] = []
let popcountC: [String] = []
#endif

let package = Package(
    name: "Atelier",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "atl-import", targets: ["atl-import"]),
        .executable(name: "atl-query", targets: ["atl-query"]),
        .executable(name: "atl-export", targets: ["atl-export"]),
        .executable(name: "atl-classify", targets: ["atl-classify"]),
        .executable(name: "atl-send", targets: ["atl-send"]),
        .executable(name: "atl-recv", targets: ["atl-recv"]),
        .executable(name: "atl-reconstruct", targets: ["atl-reconstruct"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    ],
    targets: [
        // Record types, NDJSON reading and writing, filter expressions. Depends on nothing.
        .target(name: "AtelierRecords"),
        // File formats other programs read: CSV, PLY, OBJ, glTF, USDZ; atomic writes.
        .target(name: "AtelierFormats", dependencies: ["AtelierRecords"]),
        // libjpeg(-turbo) behind a C layer that turns its longjmp errors into return codes, and
        // an eighth-scale decoder for the common photo (optimised in debug builds too: the tests
        // decode hundreds of photos through it).
        .target(name: "CJPEG", cSettings: [.unsafeFlags(["-O2"])], linkerSettings: [.linkedLibrary("jpeg")]),
        // libpng behind the same kind of C layer.
        .target(name: "CPNG", linkerSettings: [.linkedLibrary("png16")]),
        // SVG to PNG through librsvg and cairo (Debian: librsvg2-dev) behind the same kind of C layer.
        .target(name: "CSVG", linkerSettings: [.linkedLibrary("rsvg-2"), .linkedLibrary("cairo"), .linkedLibrary("gobject-2.0"), .linkedLibrary("glib-2.0")]),
        // Charts of wardrobe statistics as SVG (real text, axes with units, a colour-blind-safe
        // palette) and, through CSVG, PNG.
        .target(name: "AtelierCharts", dependencies: ["AtelierRecords", "CSVG"]),
        // The lookbook: a static web site of the wardrobe (garments, outfits, insights, laundry,
        // duplicate photos), written whole or not at all and incrementally.
        .target(name: "AtelierLookbook", dependencies: ["AtelierRecords", "AtelierFormats", "AtelierWardrobe", "AtelierCharts", "AtelierImaging"]),
        // Hamming-distance scans with AVX2 where the processor has it (chosen at run time).
        .target(name: "CHamming", cSettings: [.unsafeFlags(["-O3"] + popcountC)]),
        // The two passes of a resize in fixed point, with AVX2 where the processor has it.
        .target(name: "CResample", cSettings: [.unsafeFlags(["-O3"])]),
        // Pixels: decode, encode, resize, EXIF, hashes, quality and colour measures.
        // Optimised even in debug builds: its pixel loops are 20-50 times slower unoptimised,
        // which would make the test suite crawl.
        .target(name: "AtelierImaging", dependencies: ["AtelierRecords", "AtelierWardrobe", "CJPEG", "CPNG", "CHamming", "CResample"], swiftSettings: [.unsafeFlags(["-O"] + popcount)]),
        // The SQLite catalog: schema, migrations, stores, queries, stats.
        .target(name: "AtelierCatalog", dependencies: [
            "AtelierRecords", "AtelierFormats", "AtelierWardrobe",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // The wardrobe's domain, as the app's Domain layer: the care symbols and what each allows
        // (ISO 3758 / ASTM D5489), laundry colour groups, when a garment wants washing and the
        // laundry engine (sorting, loads, checks, lifecycle); next outfit suggestions and wear
        // insights. Pure values in, values out: no SQLite, no pixels, no I/O.
        .target(name: "AtelierWardrobe", dependencies: ["AtelierRecords"]),
        // The catalog's backup: the archive format (a zip with checksums) and backup and restore
        // of a whole catalog. Apart from the catalog so that the tools that neither back up nor
        // restore (atl-query) link neither ZIPFoundation nor swift-crypto.
        .target(name: "AtelierBackup", dependencies: [
            "AtelierRecords", "AtelierFormats", "AtelierCatalog",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // OpenBLAS's CBLAS (Debian: libopenblas-dev), for the care-label networks' convolutions.
        .systemLibrary(name: "COpenBLAS", pkgConfig: "openblas", providers: [.apt(["libopenblas-dev"])]),
        // Reading care symbols from a photo: the CPU inference engine for the small convolutional
        // networks, the detector and the label reader (what the symbols mean is AtelierWardrobe's).
        .target(name: "AtelierCareLabels", dependencies: ["AtelierRecords", "AtelierWardrobe", "AtelierImaging", "COpenBLAS"], exclude: ["Models"],
                swiftSettings: [.unsafeFlags(["-O"])]),
        // Shared command-line plumbing: diagnostics and exit codes, output, progress, common
        // options, photo paths. Depends on no domain library, so each tool links only its own.
        .target(name: "AtelierCLI", dependencies: [
            "AtelierRecords",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // The options atl-send and atl-recv share (pairing code, port, rate limit, timeouts).
        .target(name: "AtelierTransferCLI", dependencies: [
            "AtelierCLI", "AtelierTransfer",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // Pairing code, PAKE, key schedule, encrypted framing, transfer messages, DNS-SD discovery.
        .target(name: "AtelierTransfer", dependencies: ["AtelierRecords", .product(name: "Crypto", package: "swift-crypto")]),
        // Rotations, quaternions and camera poses in COLMAP's convention, shared by the renderer of
        // synthetic captures and the reconstruction that must recover them. Depends on nothing.
        // Optimised even in debug builds: solvers and render loops in other modules call it per datum.
        .target(name: "AtelierGeometry", swiftSettings: [.unsafeFlags(["-O"])]),
        // Synthetic captures with exact ground truth (a garment-like mesh rendered from known cameras),
        // for testing and benchmarking reconstruction. Test support, not shipped: no product, no install.
        // Optimised even in debug builds, like AtelierImaging: its render loops crawl unoptimised.
        .target(name: "AtelierSynthetic", dependencies: ["AtelierRecords", "AtelierImaging", "AtelierGeometry", "AtelierFormats"], swiftSettings: [.unsafeFlags(["-O"])]),
        // Structure from motion and beyond: features first (SIFT with RootSIFT descriptors).
        // Optimised even in debug builds, like AtelierImaging: its scale-space loops crawl unoptimised.
        // OpenBLAS is opened at run time (RuntimeBLAS), not linked: atl-query links this module.
        .target(name: "AtelierReconstruction", dependencies: ["AtelierRecords", "AtelierImaging", "AtelierGeometry", "AtelierFormats"], swiftSettings: [.unsafeFlags(["-O"])]),
        .executableTarget(name: "synth-capture", dependencies: [
            "AtelierSynthetic", "AtelierGeometry", "AtelierImaging", "AtelierCLI",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // Each tool links the libraries it uses and no others (a query does not carry OpenBLAS).
        .executableTarget(name: "atl-import", dependencies: ["AtelierCLI", "AtelierRecords", "AtelierFormats", "AtelierCatalog", "AtelierBackup", "AtelierImaging", .product(name: "Crypto", package: "swift-crypto"), .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .executableTarget(name: "atl-query", dependencies: ["AtelierCLI", "AtelierRecords", "AtelierCatalog", "AtelierImaging", "AtelierWardrobe", "AtelierReconstruction", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .executableTarget(name: "atl-export", dependencies: ["AtelierCLI", "AtelierRecords", "AtelierFormats", "AtelierCatalog", "AtelierBackup", "AtelierCharts", "AtelierLookbook", "AtelierWardrobe", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .executableTarget(name: "atl-classify", dependencies: ["AtelierCLI", "AtelierRecords", "AtelierImaging", "AtelierWardrobe", "AtelierCareLabels", .product(name: "Crypto", package: "swift-crypto"), .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .executableTarget(name: "atl-send", dependencies: ["AtelierCLI", "AtelierTransferCLI", "AtelierRecords", "AtelierFormats", "AtelierTransfer", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .executableTarget(name: "atl-recv", dependencies: ["AtelierCLI", "AtelierTransferCLI", "AtelierRecords", "AtelierTransfer", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .executableTarget(name: "atl-reconstruct", dependencies: ["AtelierCLI", "AtelierRecords", "AtelierFormats", "AtelierGeometry", "AtelierReconstruction", .product(name: "ArgumentParser", package: "swift-argument-parser")]),

        // What the test targets share (crash probes, stored zips, seeded draws, byte mutation, pipe
        // feeding); not shipped.
        .target(name: "AtelierTestSupport", dependencies: ["AtelierRecords", .product(name: "Crypto", package: "swift-crypto")],
                path: "Tests/AtelierTestSupport"),
        .testTarget(name: "AtelierRecordsTests", dependencies: ["AtelierRecords", "AtelierTestSupport"]),
        .testTarget(name: "AtelierImagingTests", dependencies: ["AtelierImaging", "CHamming", "CResample", "AtelierWardrobe", "AtelierRecords", "AtelierTestSupport"], exclude: ["Support"]),
        .testTarget(name: "AtelierFormatsTests", dependencies: ["AtelierFormats", "AtelierBackup", "AtelierTestSupport"]),
        .testTarget(name: "AtelierCatalogTests", dependencies: ["AtelierCatalog", "AtelierWardrobe", "AtelierBackup", "AtelierTestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "EndToEndTests", dependencies: ["AtelierRecords"], exclude: ["Support"]),
        .testTarget(name: "AtelierTransferTests", dependencies: ["AtelierTransfer", "AtelierRecords", "AtelierTestSupport"], exclude: ["Support"]),
        .testTarget(name: "AtelierCareLabelsTests", dependencies: ["AtelierCareLabels", "AtelierWardrobe", "AtelierRecords", "AtelierImaging"], exclude: ["Support"]),
        .testTarget(name: "AtelierWardrobeTests", dependencies: ["AtelierWardrobe", "AtelierRecords"]),
        .testTarget(name: "AtelierChartsTests", dependencies: ["AtelierCharts", "AtelierRecords"]),
        .testTarget(name: "AtelierGeometryTests", dependencies: ["AtelierGeometry", "AtelierRecords"]),
        .testTarget(name: "AtelierSyntheticTests", dependencies: ["AtelierSynthetic", "AtelierImaging", "AtelierGeometry", "AtelierRecords"]),
        .testTarget(name: "AtelierReconstructionTests", dependencies: ["AtelierReconstruction", "AtelierImaging", "AtelierSynthetic", "AtelierGeometry", "AtelierFormats", "AtelierTestSupport"]),
    ]
)
