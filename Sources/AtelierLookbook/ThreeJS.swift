import Foundation

/// three.js as Debian's `libjs-three` installs it, copied into a lookbook's `js/` with its
/// licence, so the 3D viewer works from `file://` with nothing fetched from a network. The
/// `examples/js` builds are used (plain scripts that extend the global `THREE`), since a browser
/// refuses ES modules from `file://`.
public struct ThreeJS: Sendable {
    /// The files to copy: name in the site's `js/` → absolute path.
    public let files: [String: String]

    /// Where libjs-three puts its scripts, or only the directory `ATELIER_THREE_JS` names (laid
    /// out the same way: three.min.js, examples/js/…, and a LICENSE or Debian's copyright file).
    static func directories(environment: [String: String]) -> [String] {
        environment["ATELIER_THREE_JS"].map { [$0] } ?? ["/usr/share/javascript/three", "/usr/local/share/javascript/three"]
    }

    /// The licence file Debian ships with the package.
    static let licences = ["/usr/share/doc/libjs-three/copyright"]

    /// three.js from the first directory that has every file, or nil (the model pages then show
    /// their still, and say how to get the viewer).
    public static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> ThreeJS? {
        let fm = FileManager.default
        for directory in directories(environment: environment) {
            let scripts = [
                "three.min.js": directory + "/three.min.js",
                "GLTFLoader.js": directory + "/examples/js/loaders/GLTFLoader.js",
                "OrbitControls.js": directory + "/examples/js/controls/OrbitControls.js",
            ]
            guard scripts.values.allSatisfy(fm.isReadableFile(atPath:)) else { continue }
            let licence = ([directory + "/LICENSE"] + licences).first(where: fm.isReadableFile(atPath:))
            guard let licence else { continue }
            return ThreeJS(files: scripts.merging(["three.js-LICENSE.txt": licence]) { a, _ in a })
        }
        return nil
    }

    /// The scripts a page with a viewer loads, in order, relative to the site's top.
    static let pageScripts = ["js/three.min.js", "js/GLTFLoader.js", "js/OrbitControls.js"]
}
