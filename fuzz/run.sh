#!/bin/sh
# Coverage-guided fuzzing of Atelier's parsers with libFuzzer (no SwiftPM involved):
#
#   fuzz/run.sh json SECONDS [libFuzzer flags…]   JSONParser, checked against ReferenceJSON
#   fuzz/run.sh csv  SECONDS [libFuzzer flags…]   CSV.split and CSVRecordReader
#   fuzz/run.sh exif SECONDS [libFuzzer flags…]   EXIF.read on JPEG, PNG and TIFF bytes, and Image.oriented
#   fuzz/run.sh image SECONDS [libFuzzer flags…]  ImageDecoder.decode and PNG.decode over libjpeg and libpng
#   fuzz/run.sh transfer SECONDS [libFuzzer flags…]  FrameDecoder, TransferMessage.decode, ManifestPath, PairingCode
#   fuzz/run.sh dns SECONDS [libFuzzer flags…]       DNSMessage decode/encode, the mDNS responder and browse cache
#   fuzz/run.sh backup SECONDS [libFuzzer flags…]    BackupArchive.Reader: member names, sizes, checksums, extraction
#
# It compiles the sources a target needs, its harness and (for json, csv and dns) the fuzz tests'
# generators, reference reader and oracle with what they draw with (SplitMix64, and the draws and
# byte mutator of Tests/AtelierTestSupport) as one module with `swiftc -sanitize=fuzzer,address`
# (for image, with the C layers CJPEG and CPNG built by the toolchain's clang with the same
# sanitizers, and module maps for them, as SwiftPM would make; for backup, with ZIPFoundation
# built as a module of its own from SwiftPM's checkout in .build/checkouts), then runs libFuzzer for SECONDS, growing the corpus in fuzz/.build-fuzz/TARGET/corpus from the seeds in fuzz/corpus/TARGET.
# A crash, or an oracle's disagreement (the harness aborts), leaves the input in
# fuzz/.build-fuzz/TARGET/artifacts/; replay it with
#   fuzz/.build-fuzz/TARGET/fuzzer fuzz/.build-fuzz/TARGET/artifacts/crash-…
# The oracles check the whole contract: no bug is modelled or stepped around. (While a finding
# is open, a harness may model it, detected from its reproducer, so that a run looks for new
# ones; ATELIER_FUZZ_STRICT=1 is then the way to see it reported again. None is at present.)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
target=${1:-}
seconds=${2:-60}
[ $# -ge 2 ] && shift 2 || shift $#
clibraries="" swiftlibraries="" dropimports="" leaks=0
# AtelierRecords, with the folders of its sources (Regex/).
records="$root/Sources/AtelierRecords/*.swift $root/Sources/AtelierRecords/*/*.swift"
# What the seeded fuzz tests' generators draw with (SplitMix64 is in AtelierRecords).
draws="$root/Tests/AtelierTestSupport/SplitMix64+Draws.swift $root/Tests/AtelierTestSupport/ByteMutator.swift"
# AtelierTransfer's crypto-free core: its error (with what its messages need from AtelierRecords),
# the frame decoder, the messages and the pairing code.
transfercore="$root/Sources/AtelierTransfer/TransferError.swift $root/Sources/AtelierRecords/ByteCount.swift
              $root/Sources/AtelierRecords/Failure/OutOfSpace.swift $root/Sources/AtelierTransfer/Channel/FrameDecoder.swift
              $root/Sources/AtelierTransfer/Messages/*.swift $root/Sources/AtelierTransfer/Pairing/PairingCode.swift
              $root/Sources/AtelierTransfer/Pairing/PairingWordList.swift $root/Sources/AtelierTransfer/Pairing/PairingRole.swift"

case $target in
json)
    harness=$here/JSONParserFuzz.swift
    sources="$records $draws $root/Tests/AtelierRecordsTests/ParserFuzzSupport.swift
             $root/Tests/AtelierRecordsTests/ReferenceJSON.swift $root/Tests/AtelierRecordsTests/JSONFuzzOracle.swift" ;;
csv)
    harness=$here/CSVFuzz.swift
    sources="$records $draws $root/Tests/AtelierTestSupport/PipeFeed.swift $root/Sources/AtelierFormats/CSV*.swift
             $root/Tests/AtelierFormatsTests/CSVFuzzSupport.swift" ;;
exif)
    harness=$here/EXIFFuzz.swift
    sources="$root/Sources/AtelierImaging/EXIF*.swift $root/Sources/AtelierImaging/Image.swift
             $root/Sources/AtelierImaging/Image+Orientation.swift" ;;
image)
    harness=$here/ImageFuzz.swift
    sources="$root/Sources/AtelierImaging/EXIF*.swift $root/Sources/AtelierImaging/Image*.swift
             $root/Sources/AtelierImaging/ImagingError.swift $root/Sources/AtelierImaging/JPEG.swift $root/Sources/AtelierImaging/PNG.swift
             $root/Sources/AtelierImaging/Parallel.swift $root/Sources/AtelierImaging/PerceptualHash.swift
             $root/Sources/AtelierImaging/Resize.swift $root/Sources/AtelierRecords/SharedPointer.swift"
    clibraries="CJPEG:jpeg CPNG:png16 CResample:m"
    leaks=1 ;;   # a leaked libjpeg or libpng object is a finding (see below)
transfer)
    # The crypto-free parsers of AtelierTransfer (swift-crypto is not built here; random bytes
    # never authenticate, so the sealed layers add nothing a fuzzer could reach).
    harness=$here/TransferFrameFuzz.swift
    sources="$transfercore" ;;
dns)
    harness=$here/DNSMessageFuzz.swift
    sources="$root/Sources/AtelierTransfer/Discovery/*.swift $transfercore $root/Sources/AtelierRecords/SplitMix64.swift $draws
             $root/Tests/AtelierTransferTests/DNSFuzzSupport.swift" ;;
backup)
    # swift-crypto is not built here: the harness has a SHA256 of its own (checked against
    # FIPS 180-4's vectors as it starts). ZIPFoundation is: the zip reading is what is fuzzed.
    harness=$here/BackupArchiveFuzz.swift
    sources="$records $root/Sources/AtelierBackup/BackupArchive*.swift $root/Sources/AtelierBackup/BackupError.swift
             $root/Sources/AtelierFormats/AtomicFile.swift $root/Sources/AtelierFormats/FormatError.swift
             $root/Tests/AtelierTestSupport/StoredZip.swift"
    swiftlibraries="ZIPFoundation:$root/.build/checkouts/ZIPFoundation/Sources"
    dropimports="Crypto" ;;
*)
    echo "usage: fuzz/run.sh json|csv|exif|image|transfer|dns|backup SECONDS [libFuzzer flags…]" >&2
    exit 64 ;;
esac

swiftc=${SWIFTC:-swiftc}
out=$here/.build-fuzz/$target
mkdir -p "$out/src" "$out/corpus" "$out/artifacts"
rm -f "$out/src/"*.swift "$out/src/"*.o

# C targets (MODULE:library): each Sources/MODULE/*.c compiled with the sanitizers, a module map
# over its include/ directory, and the library it wraps linked in.
clang=${CLANG:-$(dirname "$(command -v "$swiftc")")/clang}
cflags=""
: > "$out/src/module.modulemap"
for pair in $clibraries; do
    module=${pair%%:*}
    for c in "$root/Sources/$module/"*.c; do
        "$clang" -c -fsanitize=fuzzer-no-link,address -g -O1 -Wall -I "$root/Sources/$module/include" \
            "$c" -o "$out/src/$(basename "$c" .c).o"
    done
    printf 'module %s {\n    umbrella "%s"\n    export *\n}\n' "$module" "$root/Sources/$module/include" >> "$out/src/module.modulemap"
    cflags="$cflags -Xcc -I$root/Sources/$module/include -l${pair#*:}"
done

# Swift packages (MODULE:SOURCES): SOURCES/MODULE/*.swift compiled as a module of its own (in
# the Swift 5 mode its package asks for), with the sanitizers, its C modules (SOURCES/C*) found
# by their module maps, and its object linked in.
mkdir -p "$out/modules"
for pair in $swiftlibraries; do
    module=${pair%%:*} dir=${pair#*:}
    if [ ! -d "$dir/$module" ]; then
        echo "fuzz: $dir/$module is missing; run 'swift package resolve' (or 'swift build') first" >&2
        exit 1
    fi
    for c in "$dir"/C*/; do cflags="$cflags -I $c"; done
    "$swiftc" -sanitize=fuzzer,address -parse-as-library -swift-version 5 -O -g -module-name "$module" \
        -wmo -num-threads 0 -emit-module -emit-module-path "$out/modules/$module.swiftmodule" $cflags -Xcc -D_GNU_SOURCE=1 \
        -c "$dir/$module/"*.swift -o "$out/src/$module.o" > "$out/build.log" 2>&1 || { cat "$out/build.log" >&2; exit 1; }
done

# One module: the imports of Atelier's own modules go (and, for backup, swift-crypto's).
for f in $sources "$harness"; do
    sed -e '/^@testable import Atelier/d' -e '/^import Atelier/d' ${dropimports:+-e "/^import $dropimports\$/d"} "$f" > "$out/src/$(basename "$f")"
done

echo "fuzz: building $target" >&2
# (ld.gold warns once per ASan helper symbol that it cannot export it: harmless, filtered.)
if ! "$swiftc" -sanitize=fuzzer,address -parse-as-library -swift-version 6 -O -g \
    -module-name AtelierFuzz -I "$out/src" -I "$out/modules" $cflags "$out/src/"*.swift $(ls "$out/src/"*.o 2>/dev/null) \
    -o "$out/fuzzer" > "$out/build.log" 2>&1; then
    grep -v "Cannot export local symbol" "$out/build.log" >&2
    exit 1
fi
grep -v "Cannot export local symbol" "$out/build.log" >&2 || true

echo "fuzz: running $target for $seconds s" >&2
cd "$out"
# Swift's backtracer and ASan trip over each other on a crash; libFuzzer reports it anyway.
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}
# No leak checks, but for image: Swift's lazily built globals and metadata look like leaks to
# LeakSanitizer. There, what Swift's runtime, Dispatch and Foundation allocate is suppressed
# (fuzz/swift.lsan-suppressions), so that what is left is libjpeg's, libpng's and the C layers'.
# libFuzzer checks input by input until Dispatch's per-thread caches (pHash resizes on worker
# threads) have made it suspect a thousand clean inputs, then says so and checks once, at exit.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=$leaks"
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$here/swift.lsan-suppressions:print_suppressions=0"
exec ./fuzzer -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -detect_leaks="$leaks" \
    -dict="$here/$target.dict" -artifact_prefix="$out/artifacts/" -print_final_stats=1 \
    "$out/corpus" "$here/corpus/$target" "$@"
