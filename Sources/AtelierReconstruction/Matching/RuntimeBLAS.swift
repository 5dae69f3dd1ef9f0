#if canImport(Glibc)
import Glibc
#endif

/// OpenBLAS's `cblas_sgemm`, found when first needed rather than linked.
///
/// Linking OpenBLAS loads it, and starts its thread pool, in every process of a tool, whether
/// or not it multiplies a matrix: about 2 MB of resident memory and a thread, which `atl-query`
/// (linking this module for `duplicates`) must not pay on every query. So the library is opened
/// on the first product; where it is missing, a portable SIMD loop gives the same numbers more
/// slowly. Only the one routine the matcher uses is bound.
enum RuntimeBLAS {
    /// `C = A · Bᵀ` for row-major `A` (`rows × depth`) and `B` (`columns × depth`), `C` being
    /// `rows × columns` with row stride `columns`.
    static func multiplyTransposed(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, into c: UnsafeMutablePointer<Float>,
                                   rows: Int, columns: Int, depth: Int) {
        if let sgemm = openBLAS {
            // CblasRowMajor = 101, CblasNoTrans = 111, CblasTrans = 112 (cblas.h).
            sgemm(101, 111, 112, Int32(rows), Int32(columns), Int32(depth), 1, a, Int32(depth), b, Int32(depth), 0, c, Int32(columns))
            return
        }
        portableMultiplyTransposed(a, b, into: c, rows: rows, columns: columns, depth: depth)
    }

    /// The same product without BLAS: each entry a dot product of two rows, eight lanes at a time.
    static func portableMultiplyTransposed(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, into c: UnsafeMutablePointer<Float>,
                                           rows: Int, columns: Int, depth: Int) {
        let whole = depth & ~7
        for i in 0 ..< rows {
            let rowA = UnsafeRawPointer(a + i * depth)
            for j in 0 ..< columns {
                let rowB = UnsafeRawPointer(b + j * depth)
                var sum = SIMD8<Float>()
                var k = 0
                while k < whole {
                    sum += rowA.loadUnaligned(fromByteOffset: 4 * k, as: SIMD8<Float>.self)
                        * rowB.loadUnaligned(fromByteOffset: 4 * k, as: SIMD8<Float>.self)
                    k += 8
                }
                var total = sum.sum()
                while k < depth {
                    total += a[i * depth + k] * b[j * depth + k]
                    k += 1
                }
                c[i * columns + j] = total
            }
        }
    }

    private typealias SGEMM = @convention(c) (Int32, Int32, Int32, Int32, Int32, Int32, Float, UnsafePointer<Float>?, Int32,
                                              UnsafePointer<Float>?, Int32, Float, UnsafeMutablePointer<Float>?, Int32) -> Void

    /// `cblas_sgemm` from libopenblas, told to stay on the calling thread (the matcher runs image
    /// pairs in parallel, which scales better than threading inside a product of this size);
    /// nil when the library cannot be opened.
    private static let openBLAS: SGEMM? = {
        #if canImport(Glibc)
        guard let library = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL) ?? dlopen("libopenblas.so", RTLD_NOW | RTLD_LOCAL),
              let sgemm = dlsym(library, "cblas_sgemm") else { return nil }
        if let setThreads = dlsym(library, "openblas_set_num_threads") {
            unsafeBitCast(setThreads, to: (@convention(c) (Int32) -> Void).self)(1)
        }
        return unsafeBitCast(sgemm, to: SGEMM.self)
        #else
        return nil
        #endif
    }()

    /// Whether OpenBLAS was found (for tests and diagnostics).
    static var usesOpenBLAS: Bool { openBLAS != nil }
}
