// Hamming-distance scans for near-duplicate search: which of many 64-bit hashes lie within a
// number of bits of one. A search over 100,000 photos makes billions of these comparisons, and
// Swift cannot ask for the vector instructions that do four at once (it builds for the first
// x86-64), so they are done here, chosen at run time.
#ifndef ATL_HAMMING_H
#define ATL_HAMMING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Writes to `out` (room for `count`) the positions k, in order, of the `keys` with at most
/// `threshold` bits different from `hash`, and returns how many there are.
size_t atl_hamming_within(uint64_t hash, const uint64_t *keys, size_t count, unsigned threshold, uint32_t *out);

/// A copy of `count` hashes laid out for scanning many times (bit-sliced in blocks of 256, so
/// 256 distances are counted at once); NULL when out of memory.
typedef struct atl_hamming_table atl_hamming_table;
atl_hamming_table *atl_hamming_table_make(const uint64_t *keys, size_t count);
void atl_hamming_table_free(atl_hamming_table *table);

/// As atl_hamming_within over the table's hashes from position `from` on: writes to `out`
/// (room for the hashes from `from`) their positions counted from `from`, in order.
size_t atl_hamming_table_within(const atl_hamming_table *table, uint64_t hash, size_t from, unsigned threshold,
                                uint32_t *out);

/// The same scan without vector instructions, as a processor without AVX2 runs it (for tests).
size_t atl_hamming_within_portable(uint64_t hash, const uint64_t *keys, size_t count, unsigned threshold, uint32_t *out);

/// The implementation in use: "avx2" or "scalar" (named in the tests' failure messages).
const char *atl_hamming_kind(void);

#ifdef __cplusplus
}
#endif

#endif
