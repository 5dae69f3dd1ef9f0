import Foundation
@testable import AtelierRecords

// libFuzzer harness for `JSONParser` (build and run with `fuzz/run.sh json SECONDS`).
//
// Every input is one NDJSON line. `JSONFuzzOracle.check` (Tests/AtelierRecordsTests/
// JSONFuzzOracle.swift) reads it with `JSONParser.parseObject`, in full and in every
// `keeping:` mode, and with the strict reference reader, and compares verdicts and values; it
// also writes what was read and reads it back. Any disagreement aborts, so libFuzzer keeps the
// input as a crash artifact; AddressSanitizer and Swift's own traps catch the rest.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let problem = JSONFuzzOracle.check(bytes) {
        FileHandle.standardError.write(Data("JSONParser disagrees with the reference: \(problem)\n".utf8))
        abort()
    }
    return 0
}
