import Foundation

/// Where the catalog lives: `--db`, else `$ATELIER_DB`, else
/// `$XDG_DATA_HOME/atelier/catalog.sqlite` (`~/.local/share/atelier/catalog.sqlite`).
public enum CatalogLocation {
    public static func resolve(_ option: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let option, !option.isEmpty { return option }
        if let path = environment["ATELIER_DB"], !path.isEmpty { return path }
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = xdg
        } else {
            dataHome = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        }
        return dataHome + "/atelier/catalog.sqlite"
    }
}
