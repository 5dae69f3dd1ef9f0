// OpenBLAS's CBLAS interface (Debian: libopenblas-dev). pkg-config points the include path at
// OpenBLAS's own cblas.h (…/openblas-pthread/); without pkg-config, <cblas.h> is Debian's
// alternatives link, which is OpenBLAS's header when OpenBLAS is the selected BLAS.
#ifndef ATELIER_COPENBLAS_SHIM_H
#define ATELIER_COPENBLAS_SHIM_H

#include <cblas.h>

// OpenBLAS extensions; repeated here because a generic cblas.h (another BLAS selected as the
// alternative) does not declare them, while libopenblas always exports them.
void openblas_set_num_threads(int num_threads);
int openblas_get_num_threads(void);

#endif
