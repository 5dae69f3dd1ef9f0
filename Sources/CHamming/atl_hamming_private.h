// What the scans of CHamming share and Swift need not see.
#ifndef ATL_HAMMING_PRIVATE_H
#define ATL_HAMMING_PRIVATE_H

/// 1 where the processor has AVX2 (asked once), else 0.
int atl_hamming_use_avx2(void);

#endif
