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

/// As atl_hamming_table_within for `queries` hashes at once, the q-th from position `from[q]`
/// into `out[q]`, its count into `found[q]`: the table is read once for every 8.
void atl_hamming_table_within_many(const atl_hamming_table *table, const uint64_t *hashes, const size_t *from,
                                   size_t queries, unsigned threshold, uint32_t *const *out, size_t *found);

/// Hashes bucketed by the value of one 16-bit chunk: `starts[v] ..< starts[v + 1]` (65,537
/// entries) are the positions in `keys` and `ids` of the hashes whose chunk is v.
typedef struct {
    const int32_t *starts;
    const uint64_t *keys;
    const int32_t *ids;
} atl_buckets;

/// Adds to `counts[v]` (65,536 entries) the hashes among `keys[begin ..< end]` whose 16-bit
/// chunk `chunk` (0 the lowest) is v: the first pass of a counting sort into buckets.
void atl_chunk_count(const uint64_t *keys, size_t begin, size_t end, unsigned chunk, int32_t *counts);

/// The second pass: writes each of `keys[begin ..< end]` and its id (`ids[k]`, or k where `ids`
/// is NULL) at `fill[v]` of its chunk's value v in `out_keys` and `out_ids`, and moves `fill[v]` on.
void atl_chunk_scatter(const uint64_t *keys, const int32_t *ids, size_t begin, size_t end, unsigned chunk,
                       int32_t *fill, uint64_t *out_keys, int32_t *out_ids);

/// Room for a join to gather the photos it probes: as many as the probed buckets hold.
typedef struct {
    uint64_t *keys;
    int32_t *ids;
    uint32_t *hits;
} atl_join_scratch;

/// The pairs (a bucket of window hashes, all of chunk value `value`) x (the photo hashes in the
/// buckets at `value ^ masks[m]`) within `threshold` bits, of a photo and a window of another
/// photo: each as `min(id) << 32 | max(id)`, written to `out` while there is room (`capacity`).
/// Returns how many there are, which may be more than `capacity`: then call again with more.
size_t atl_hamming_join(atl_buckets photos, uint16_t value, const uint16_t *masks, size_t mask_count,
                        const uint64_t *window_keys, const int32_t *window_ids, size_t window_count,
                        unsigned threshold, atl_join_scratch scratch, int64_t *out, size_t capacity);

/// Reads `count` hashes written as 16 hexadecimal digits each, one after another, from `text`
/// (16 * count bytes) into `out`; 0 if a byte is no digit (then `out` is partly written), else 1.
int atl_hex64_parse(const uint8_t *text, size_t count, uint64_t *out);

/// The same scan without vector instructions, as a processor without AVX2 runs it (for tests).
size_t atl_hamming_within_portable(uint64_t hash, const uint64_t *keys, size_t count, unsigned threshold, uint32_t *out);

/// The implementation in use: "avx2" or "scalar" (named in the tests' failure messages).
const char *atl_hamming_kind(void);

#ifdef __cplusplus
}
#endif

#endif
