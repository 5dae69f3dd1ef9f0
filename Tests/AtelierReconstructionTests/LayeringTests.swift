import Foundation
import XCTest

/// The folders of AtelierReconstruction depend in one direction, as COLMAP's libraries do
/// (docs/reconstruction-layout.md): a file may use what its own folder and the folders below it
/// declare, never what a folder above declares. One module cannot have the compiler keep this,
/// so this test reads the sources and does.
final class LayeringTests: XCTestCase {
    /// The folders from the bottom up; "" is the module's root (the error and the photos given).
    /// A new folder must be placed here before the test passes.
    static let order = [
        "", "Parallel", "Camera", "Features", "Matching", "Estimators", "Duplicates", "BundleAdjustment",
        "SfM", "Dense", "Mesh", "Texture", "Pipeline",
    ]

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/AtelierReconstruction").standardizedFileURL

    func testFoldersUseOnlyTheirOwnAndLowerFolders() throws {
        let files = try Self.readSources()
        XCTAssertGreaterThan(files.count, 100, "the sources were not found at \(Self.sources.path)")
        let unplaced = Set(files.keys.map(Layering.folder)).subtracting(Self.order)
        XCTAssertTrue(unplaced.isEmpty, "folders missing from LayeringTests.order: \(unplaced.sorted())")
        let upward = Layering(order: Self.order).upwardReferences(in: files)
        XCTAssertTrue(upward.isEmpty, "references to a higher folder:\n" + upward.joined(separator: "\n"))
    }

    /// The check itself: it must see a use of a higher folder's type, and nothing in comments,
    /// strings or private declarations.
    func testTheCheckFindsAnUpwardReference() {
        let files = [
            "Features/Detector.swift": """
                /// Fed to `PatchMatchStereo` later.
                struct Detector { var log = "DenseView \\("Mesh")"; var pool: WorkPool }
                private struct Cache {}
                """,
            "Dense/DenseView.swift": "struct DenseView {}\nlet maps = Detector()\nprivate struct Helper {}",
            "Parallel/WorkPool.swift": "final class WorkPool { let cache: Cache? = nil }\n/* Detector */",
            "Mesh/Cache.swift": "struct Cache {}\nstruct Surface { var view: DenseView }",
        ]
        let upward = Layering(order: Self.order).upwardReferences(in: files)
        XCTAssertEqual(upward, ["Parallel/WorkPool.swift uses Cache from Mesh"])
    }

    static func readSources() throws -> [String: String] {
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(sources.path.count + 1))
            files[relative] = try String(contentsOf: url, encoding: .utf8)
        }
        return files
    }
}

/// Which folder declares each top-level name, and which names each file uses.
struct Layering {
    let order: [String]

    /// The folder of a path relative to the module ("" for a file at its root).
    static func folder(_ path: String) -> String {
        path.contains("/") ? String(path.prefix { $0 != "/" }) : ""
    }

    /// "File uses Name from Folder", for every use of a name declared in a higher folder.
    /// Names are the top-level types, functions and constants that are not private; nested
    /// types are reached through their outer type, which is what is matched.
    func upwardReferences(in files: [String: String]) -> [String] {
        let code = files.mapValues(Self.code)
        var declaredIn: [String: String] = [:], ownNames: [String: Set<String>] = [:]
        for (path, text) in code {
            for (name, isPrivate) in Self.topLevelNames(text) {
                ownNames[Self.folder(path), default: []].insert(name)
                if !isPrivate { declaredIn[name] = Self.folder(path) }
            }
        }
        var found: [String] = []
        for (path, text) in code.sorted(by: { $0.key < $1.key }) {
            let rank = order.firstIndex(of: Self.folder(path)) ?? order.count
            var reported = Set<String>()
            for word in Self.identifiers(text) {
                guard let owner = declaredIn[word], owner != Self.folder(path), !ownNames[Self.folder(path), default: []].contains(word),
                      (order.firstIndex(of: owner) ?? order.count) > rank, reported.insert(word).inserted else { continue }
                found.append("\(path) uses \(word) from \(owner.isEmpty ? "the module root" : owner)")
            }
        }
        return found
    }

    /// Names declared at the start of a line (top level), and whether each is private or
    /// fileprivate (unusable from another folder, but it shadows a name from one).
    static func topLevelNames(_ code: String) -> [(name: String, isPrivate: Bool)] {
        let keywords: Set<Substring> = ["struct", "class", "enum", "protocol", "actor", "typealias", "func", "let", "var"]
        var names: [(name: String, isPrivate: Bool)] = []
        for line in code.split(separator: "\n") where line.first.map({ !$0.isWhitespace && $0 != "}" }) ?? false {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "(" || $0 == ":" || $0 == "<" || $0 == "{" })
            guard let k = words.firstIndex(where: { keywords.contains($0) }), k + 1 < words.count,
                  !words[..<k].contains("extension") else { continue }
            names.append((String(words[k + 1]), words[..<k].contains { $0 == "private" || $0 == "fileprivate" }))
        }
        return names
    }

    static func identifiers(_ code: String) -> [String] {
        code.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).map(String.init)
    }

    /// `text` with comments and string literals (interpolations included) blanked, lines kept.
    static func code(_ text: String) -> String {
        let chars = Array(text)
        var out = "", i = 0
        /// Skips a string literal starting at `i` (at its opening quote); returns the index after it.
        func skipString(_ start: Int) -> Int {
            let triple = start + 2 < chars.count && chars[start + 1] == "\"" && chars[start + 2] == "\""
            var j = start + (triple ? 3 : 1)
            while j < chars.count {
                if chars[j] == "\\" && j + 1 < chars.count && chars[j + 1] == "(" {
                    var depth = 1
                    j += 2
                    while j < chars.count && depth > 0 {
                        if chars[j] == "\"" { j = skipString(j); continue }
                        if chars[j] == "(" { depth += 1 } else if chars[j] == ")" { depth -= 1 }
                        j += 1
                    }
                    continue
                }
                if chars[j] == "\\" { j += 2; continue }
                if chars[j] == "\n" { out += "\n" }
                if triple ? (chars[j] == "\"" && j + 2 < chars.count && chars[j + 1] == "\"" && chars[j + 2] == "\"") : chars[j] == "\"" {
                    return j + (triple ? 3 : 1)
                }
                if !triple && chars[j] == "\n" { return j + 1 }
                j += 1
            }
            return j
        }
        while i < chars.count {
            let c = chars[i], next: Character? = i + 1 < chars.count ? chars[i + 1] : nil
            if c == "/" && next == "/" {
                while i < chars.count && chars[i] != "\n" { i += 1 }
            } else if c == "/" && next == "*" {
                var depth = 0
                repeat {
                    if chars[i] == "/" && i + 1 < chars.count && chars[i + 1] == "*" { depth += 1; i += 2; continue }
                    if chars[i] == "*" && i + 1 < chars.count && chars[i + 1] == "/" { depth -= 1; i += 2; continue }
                    if chars[i] == "\n" { out += "\n" }
                    i += 1
                } while i < chars.count && depth > 0
            } else if c == "\"" {
                out += "\"\""
                i = skipString(i)
            } else {
                out.append(c)
                i += 1
            }
        }
        return out
    }
}
