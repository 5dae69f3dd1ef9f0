import Foundation
import XCTest

/// The tools as a user runs them: built binaries in real shell pipelines.
final class PipelineTests: XCTestCase {
    var sh: Shell!

    override func setUpWithError() throws { sh = try Shell() }
    override func tearDown() { sh.remove() }

    func testSampleWardrobeAndTheDesignPipeline() throws {
        let imported = try sh.run("atl-import --sample")
        XCTAssertEqual(imported.status, 0, imported.err)
        let records = Shell.records(imported)
        XCTAssertEqual(records.filter { $0["type"] as? String == "garment" }.count, 44)
        XCTAssertEqual(records.filter { $0["type"] as? String == "outfit" }.count, 10)
        let coats = try sh.run("atl-query garments --where 'season=winter' --where 'category=outerwear' --sort -wearCount | jq -r .name")
        XCTAssertEqual(coats.status, 0, coats.err)
        XCTAssertEqual(coats.lines.first, "Camel Wool Coat")
        // The same answer from SQLite's own command-line tool, reading our file.
        let sql = try sh.run("""
            sqlite3 "$ATELIER_DB" "SELECT name FROM garments WHERE category = 'outerwear' AND EXISTS (SELECT 1 FROM json_each(seasons) WHERE value = 'winter') ORDER BY wear_count DESC, rowid"
            """)
        XCTAssertEqual(sql.status, 0, sql.err)
        XCTAssertEqual(sql.lines, coats.lines)
        let integrity = try sh.run(#"sqlite3 "$ATELIER_DB" 'PRAGMA integrity_check; PRAGMA journal_mode; PRAGMA foreign_key_check;'"#)
        XCTAssertEqual(integrity.lines, ["ok", "wal"])
    }

    func testStdinFilterPassesLinesThroughUntouched() throws {
        let input = """
            {"type":"garment","name":"A","category":"top","zeta":1,"alpha":[1,2]}
            {"type":"image","id":"x"}
            {"type":"garment", "name":"B","category":"bottom"}

            """
        let result = try sh.run("atl-query - --where category=top", stdin: Data(input.utf8))
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.out, #"{"type":"garment","name":"A","category":"top","zeta":1,"alpha":[1,2]}"# + "\n")
        // The catalog's spellings hold on a stream too: a singular alias, an enum's vocabulary.
        let seasons = try sh.run("atl-query - --where season=winter --where category=Outerwear", stdin: Data(#"{"type":"garment","name":"Coat","category":"outerwear","seasons":["autumn","winter"]}"#.utf8))
        XCTAssertEqual(seasons.lines.count, 1, seasons.err)
        let misspelt = try sh.run("atl-query - --where category=outwear", stdin: Data(input.utf8))
        XCTAssertEqual(misspelt.status, 64)
        XCTAssertEqual(misspelt.err, "atl-query: in 'category=outwear': unknown category \"outwear\"; did you mean \"outerwear\"?\n")
        let none = try sh.run("atl-query - --where category=shoes", stdin: Data(input.utf8))
        XCTAssertEqual(none.status, 1, "nothing matched")
        let sorted = try sh.run("atl-query - --sort -name --fields name", stdin: Data(input.utf8))
        XCTAssertEqual(sorted.lines, [#"{"type":"garment","name":"B"}"#, #"{"type":"garment","name":"A"}"#, #"{"type":"image"}"#])
    }

    func testMalformedLineIsNamedAndNothingIsImported() throws {
        let input = "{\"type\":\"garment\",\"name\":\"A\",\"category\":\"top\"}\n{\"type\":\"garment\",\"name\":\"B\",\"category\":\"top\"\n"
        let result = try sh.run("atl-import", stdin: Data(input.utf8))
        XCTAssertEqual(result.status, 65)
        XCTAssertEqual(result.out, "", "nothing printed for a rolled-back import")
        XCTAssertEqual(result.err, "atl-import: stdin:2:46: unexpected end of line, expected ',' or '}'; nothing from stdin was imported\n")
        XCTAssertEqual(try sh.run(#"sqlite3 "$ATELIER_DB" 'SELECT count(*) FROM garments'"#).out, "0\n")
    }

    func testWrongTypeUnknownEnumAndNonUTF8() throws {
        let wrongType = try sh.run("atl-import", stdin: Data(#"{"type":"garment","name":"A","category":"top","wearCount":"many"}"#.utf8))
        XCTAssertEqual(wrongType.status, 65)
        XCTAssertTrue(wrongType.err.hasPrefix(#"atl-import: stdin:1: field "wearCount" must be a whole number, got "many""#), wrongType.err)
        let unknown = try sh.run("atl-import", stdin: Data(#"{"type":"garment","name":"A","category":"outwear"}"#.utf8))
        XCTAssertEqual(unknown.status, 65)
        XCTAssertTrue(unknown.err.contains(#"unknown category "outwear"; did you mean "outerwear"?"#), unknown.err)
        var bytes = Data(#"{"type":"garment","name":"Caf"#.utf8)
        bytes.append(contentsOf: [0xE9])
        bytes.append(Data(#"","category":"top"}"#.utf8))
        let latin1 = try sh.run("atl-import", stdin: bytes)
        XCTAssertEqual(latin1.status, 65)
        XCTAssertTrue(latin1.err.contains("stdin:1:27: invalid UTF-8 in a string"), latin1.err)
    }

    func testSkipInvalidStoresTheGoodRecords() throws {
        let input = """
            {"type":"garment","name":"Good","category":"top"}
            not json
            {"type":"wear","garment":"g_unknown"}
            {"type":"garment","name":"Also good","category":"bottom"}
            """
        let result = try sh.run("atl-import --skip-invalid", stdin: Data(input.utf8))
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(Shell.records(result).count, 2)
        XCTAssertTrue(result.err.contains("stdin:2:1: expected a JSON object (skipped)"), result.err)
        XCTAssertTrue(result.err.contains("stdin:3: no garment g_unknown in the catalog (skipped)"), result.err)
        XCTAssertTrue(result.err.contains("skipped 2 invalid records"))
    }

    func testTenMegabyteLineIsRefusedWithBoundedMemory() throws {
        let result = try sh.run("""
            { echo '{"type":"garment","name":"ok","category":"top"}'; printf '{"type":"garment","name":"'; head -c 10000000 /dev/zero | tr '\\0' x; echo '","category":"top"}'; } 2>/dev/null | atl-import
            """)
        XCTAssertEqual(result.status, 65)
        XCTAssertEqual(result.err, "atl-import: stdin:2: line is longer than 8 MiB; is this NDJSON?; nothing from stdin was imported\n")
        // A long but legal line goes through.
        let ok = try sh.run("""
            { printf '{"type":"garment","category":"top","name":"'; head -c 2000000 /dev/zero | tr '\\0' x; echo '"}'; } | atl-import | wc -c
            """)
        XCTAssertEqual(ok.status, 0, ok.err)
        XCTAssertGreaterThan(Int(ok.out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, 2_000_000)
    }

    func testClosedPipeAndClosedStdout() throws {
        XCTAssertEqual(try sh.run("atl-import --sample > /dev/null").status, 0)
        let head = try sh.run("atl-query garments | head -1")
        XCTAssertEqual(head.status, 0)
        XCTAssertEqual(head.err, "", "a closed pipe is not an error")
        XCTAssertEqual(head.lines.count, 1)
        let big = try sh.run("atl-import --sample | head -1; echo ${PIPESTATUS[0]}")
        XCTAssertEqual(big.lines.last, "0")
        let closed = try sh.run("atl-query garments >&-")
        XCTAssertEqual(closed.status, 74)
        XCTAssertTrue(closed.err.contains("cannot write to standard output"), closed.err)
    }

    func testExportWritesAtomicallyAndRefusesUnwritableTargets() throws {
        try sh.run("atl-import --sample > /dev/null")
        let csv = try sh.run("atl-query garments | atl-export --format csv -o out.csv && head -1 out.csv && ls -a")
        XCTAssertEqual(csv.status, 0, csv.err)
        XCTAssertTrue(csv.lines[0].hasPrefix("type,id,name,category,subcategory,brand,color,colorName,seasons,style,state,composition,care,price.amount,price.currency"))
        XCTAssertFalse(csv.out.contains(".tmp-"), "no temporary file left")
        let python = try sh.run(#"python3 -c "import csv,sys; rows=list(csv.DictReader(open('out.csv'))); print(len(rows), rows[0]['price.amount'])""#)
        XCTAssertEqual(python.out, "44 39.9\n")
        let missingDir = try sh.run("atl-query garments | atl-export -o no/such/dir/x.ndjson")
        XCTAssertEqual(missingDir.status, 73)
        XCTAssertEqual(missingDir.err, "atl-export: cannot write no/such/dir/x.ndjson: No such file or directory\n")
        // A path through a regular file cannot be created by anyone, root included.
        let underFile = try sh.run("echo kept > plain && atl-query garments | atl-export -o plain/x.ndjson")
        XCTAssertEqual(underFile.status, 73)
        XCTAssertEqual(underFile.err, "atl-export: cannot write plain/x.ndjson: Not a directory\n")
        XCTAssertEqual(try sh.run("cat plain").out, "kept\n")
        let full = try sh.run("atl-query garments | atl-export --format json -o /dev/full")
        XCTAssertEqual(full.status, 73, "out of space is exit 73 (FullDiskTests)")
        XCTAssertEqual(full.err, "atl-export: no space left on device writing /dev/full\n")
        XCTAssertEqual(try sh.run("stat -c %F /dev/full").out, "character special file\n", "a device is written into, never replaced")
        let json = try sh.run("atl-query outfits --expand | atl-export --format json | jq '.[0].garments[0].type'")
        XCTAssertEqual(json.out, "\"garment\"\n")
    }

    /// A directory the tool may not write into: exit 73, one line naming the path and why,
    /// nothing on stdout, and nothing left in the directory. Root ignores permission bits, so as
    /// root (as CI runs) the directory is a read-only bind mount instead, in a mount namespace of
    /// its own (`unshare -m`), which root cannot write through either; where such a mount is not
    /// allowed the test is skipped and says why.
    func testExportIntoAReadOnlyDirectoryIs73AndLeavesNothing() throws {
        try sh.run("atl-import --sample > /dev/null && mkdir ro && echo kept > ro/other.csv")
        let export = "atl-query garments | atl-export --format csv -o ro/x.csv > export.out 2> export.err; echo $? > export.status"
        let reason: String
        if getuid() == 0 {
            guard try sh.run("unshare -m sh -c 'mount --bind ro ro && mount -o remount,ro,bind ro'").status == 0 else {
                throw XCTSkip("as root, a read-only directory needs a read-only bind mount, and this sandbox does not allow one in unshare -m")
            }
            try "mount --bind ro ro && mount -o remount,ro,bind ro || exit 90\n\(export)\n".write(toFile: sh.dir + "/read-only.sh", atomically: true, encoding: .utf8)
            XCTAssertEqual(try sh.run("unshare -m bash read-only.sh").status, 0)
            reason = "Read-only file system"
        } else {
            XCTAssertEqual(try sh.run("chmod 555 ro && { \(export); }; chmod 755 ro").status, 0)
            reason = "Permission denied"
        }
        XCTAssertEqual(try sh.run("cat export.status").out, "73\n")
        XCTAssertEqual(try sh.run("cat export.err").out, "atl-export: cannot write ro/x.csv: \(reason)\n")
        XCTAssertEqual(try sh.run("cat export.out").out, "")
        XCTAssertEqual(try sh.run("ls -A ro").lines, ["other.csv"], "no temporary or partial file left")
        XCTAssertEqual(try sh.run("cat ro/other.csv").out, "kept\n")
    }

    func testCSVRoundTripThroughImport() throws {
        try sh.run("atl-import --sample > /dev/null")
        let result = try sh.run("""
            atl-query garments | atl-export --format csv -o g.csv &&
            ATELIER_DB=second.sqlite atl-import g.csv > /dev/null &&
            diff <(atl-query garments | jq -c 'del(.updatedAt)') <(ATELIER_DB=second.sqlite atl-query garments | jq -c 'del(.updatedAt)')
            """)
        XCTAssertEqual(result.status, 0, result.out + result.err)
    }

    func testBackupRestoreRoundTripAndRefusals() throws {
        try sh.run("atl-import --sample > /dev/null")
        let round = try sh.run("""
            atl-export --format backup -o a.atelier &&
            ATELIER_DB=r.sqlite atl-import --restore a.atelier &&
            ATELIER_DB=r.sqlite atl-export --format backup -o b.atelier &&
            mkdir xa xb && (cd xa && unzip -q ../a.atelier) && (cd xb && unzip -q ../b.atelier) && diff -r xa/tables xb/tables && echo same
            """)
        XCTAssertEqual(round.lines.last, "same", round.err)
        let before = try sh.run(#"atl-query garments | md5sum"#).out
        for (name, make) in [("foreign.atelier", "echo hello > foreign.atelier"),
                             ("truncated.atelier", "head -c 3000 a.atelier > truncated.atelier"),
                             ("tampered.atelier", "mkdir t && cd t && unzip -q ../a.atelier && sed -i 's/Camel/Camal/' tables/garment.ndjson && zip -q -r ../tampered.atelier . && cd ..")] {
            try sh.run(make)
            let result = try sh.run("atl-import --restore \(name)")
            XCTAssertEqual(result.status, 65, name + result.err)
            XCTAssertTrue(result.err.contains("not a usable Atelier backup") && result.err.contains("the catalog was not changed"), result.err)
            XCTAssertEqual(try sh.run(#"atl-query garments | md5sum"#).out, before, name)
        }
    }

    /// Regression: two first imports into a catalog that did not exist yet failed with "busy" or
    /// "table garments already exists" (both switched the new file to WAL and migrated it at once).
    func testTwoProcessesCreatingAndImportingAtOnce() throws {
        let result = try sh.run("""
            for round in $(seq 1 12); do
              export ATELIER_DB=$PWD/round-$round.sqlite
              for p in 1 2; do (for i in $(seq 1 100); do echo "{\\"type\\":\\"garment\\",\\"name\\":\\"p$p-$i\\",\\"category\\":\\"top\\"}"; done | atl-import > /dev/null) & done; wait
              for p in 1 2; do (atl-import --sample > /dev/null) & done; wait
              sqlite3 "$ATELIER_DB" 'SELECT count(*) FROM garments; PRAGMA integrity_check;' | paste -sd ' '
            done | sort | uniq -c | awk '{print $1, $2, $3}'
            ls -a | grep -c '[.]new-' || true
            """)
        XCTAssertEqual(result.lines, ["12 244 ok", "0"], "every round stores both inputs, and leaves no temporary catalog: " + result.err)
    }

    func testProgressEventsAreNDJSONOnStderr() throws {
        let result = try sh.run("""
            for i in $(seq 1 3000); do echo "{\\"type\\":\\"garment\\",\\"name\\":\\"g$i\\",\\"category\\":\\"top\\"}"; done > 'odd "name".ndjson'
            atl-import --progress json 'odd "name".ndjson' 2>&1 >/dev/null
            """)
        XCTAssertEqual(result.status, 0, result.err)
        let events = Shell.records(result)
        XCTAssertFalse(events.isEmpty)
        XCTAssertTrue(events.allSatisfy { $0["type"] as? String == "progress" }, result.out)
        XCTAssertEqual(events.last?["stage"] as? String, #"importing odd "name".ndjson"#)
        XCTAssertEqual(events.last?["done"] as? Int, 3000)
        XCTAssertEqual(events.last?["fraction"] as? Double, 1)
        XCTAssertEqual(try sh.run("atl-import --sample 2>&1 >/dev/null").out, "", "no progress unless asked when stderr is not a terminal")
    }

    func testUsageErrorsAndHelp() throws {
        let unknownView = try sh.run("atl-query garmnets")
        XCTAssertEqual(unknownView.status, 64)
        XCTAssertEqual(unknownView.err, """
            atl-query: unknown view "garmnets"; did you mean "garments"?
            Try 'atl-query --help' for the options and examples.

            """, "usage errors read like the tools' other messages")
        XCTAssertEqual(try sh.run("atl-query garments").status, 66, "no catalog yet")
        XCTAssertEqual(try sh.run("atl-query - --where '=x' < /dev/null").status, 64)
        XCTAssertEqual(try sh.run("atl-import missing.ndjson").status, 66)
        let noArchive = try sh.run("atl-import --restore missing.atelier")
        XCTAssertEqual(noArchive.status, 66)
        XCTAssertEqual(noArchive.err, "atl-import: cannot read missing.atelier: No such file or directory; the catalog was not changed\n")
        XCTAssertEqual(try sh.run("atl-export --format csv < /dev/null").out, "", "no records, no header")
        let by = try sh.run("atl-query stats --by colr")
        XCTAssertEqual(by.status, 64)
        XCTAssertEqual(by.err, """
            atl-query: The value 'colr' is invalid for '--by <dimension>'; expected one of: category, subcategory, brand, season, style, color, state, fabric, garment, month, weekday
            Try 'atl-query --help' for the options and examples.

            """)
        try sh.run("atl-import --sample > /dev/null")
        let sort = try sh.run("atl-query garments --sort wearcount --limit 1")
        XCTAssertEqual(sort.status, 0)
        XCTAssertEqual(sort.err, "atl-query: garment records have no field \"wearcount\" (did you mean \"wearCount\"?); records without it sort last\n")
        // A field to keep that the type does not have is told too (the records still come).
        let kept = try sh.run("atl-query garments --fields nme,category --limit 1")
        XCTAssertEqual(kept.status, 0)
        XCTAssertEqual(kept.err, "atl-query: garment records have no field \"nme\" (did you mean \"name\"?); only records with such an extra field show it\n")
        let keptRecord = try JSONSerialization.jsonObject(with: Data(kept.out.utf8)) as? [String: Any]
        XCTAssertEqual(keptRecord.map { Set($0.keys) }, ["type", "category"])
        XCTAssertEqual(try sh.run("atl-query garments --fields name,readyToWash,price.amount --limit 1").err, "", "known and computed fields, and paths into them")
        for tool in ["atl-import", "atl-query", "atl-export"] {
            let help = try sh.run("\(tool) --help")
            XCTAssertEqual(help.status, 0)
            XCTAssertTrue(help.out.contains("EXAMPLES"), tool)
            XCTAssertEqual(try sh.run("\(tool) --version").out, "0.1.0\n")
        }
    }
}
