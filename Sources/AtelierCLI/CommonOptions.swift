import ArgumentParser

/// `--db`, shared by every tool that opens the catalog.
public struct CatalogOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The catalog file (default: $ATELIER_DB, else $XDG_DATA_HOME/atelier/catalog.sqlite).", valueName: "path"),
            completion: .file(extensions: ["sqlite", "db"]))
    public var db: String?

    public init() {}

    /// The resolved catalog path.
    public var path: String { CatalogLocation.resolve(db) }
}

/// `--line-buffered`, for tools that print records.
public struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Flush stdout after every record (the default when stdout is a terminal).")
    public var lineBuffered = false

    public init() {}
}

/// `--progress`, for tools that do long work.
public struct ProgressOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Progress on stderr: auto (a bar on a terminal), bar, json (NDJSON events) or none.", valueName: "mode"))
    public var progress: ProgressMode = .auto

    public init() {}
}

/// The version every tool reports.
public enum AtelierVersion {
    public static let string = "0.1.0"
}
