/// Samples of a scalar field on a regular grid (a signed distance, or any field whose level set is
/// the surface): `values[(z · ny + y) · nx + x]` at `origin + spacing · (x, y, z)`. NaN marks a
/// sample with no information (outside every view); cells touching one produce no surface.
public struct ScalarVolume: Sendable, Equatable {
    public let nx: Int
    public let ny: Int
    public let nz: Int
    public let origin: SIMD3<Double>
    public let spacing: Double
    public var values: [Float]

    public init(nx: Int, ny: Int, nz: Int, origin: SIMD3<Double>, spacing: Double, values: [Float]) {
        precondition(nx >= 2 && ny >= 2 && nz >= 2 && values.count == nx * ny * nz && spacing > 0)
        self.nx = nx
        self.ny = ny
        self.nz = nz
        self.origin = origin
        self.spacing = spacing
        self.values = values
    }

    /// A volume sampled from `field` at every grid point.
    public init(nx: Int, ny: Int, nz: Int, origin: SIMD3<Double>, spacing: Double, field: (SIMD3<Double>) -> Float) {
        var values = [Float](repeating: 0, count: nx * ny * nz)
        for z in 0 ..< nz {
            for y in 0 ..< ny {
                for x in 0 ..< nx { values[(z * ny + y) * nx + x] = field(origin + spacing * SIMD3(Double(x), Double(y), Double(z))) }
            }
        }
        self.init(nx: nx, ny: ny, nz: nz, origin: origin, spacing: spacing, values: values)
    }

    @inline(__always) func index(_ x: Int, _ y: Int, _ z: Int) -> Int { (z * ny + y) * nx + x }

    @inline(__always) func position(_ index: Int) -> SIMD3<Double> {
        let x = index % nx, y = (index / nx) % ny, z = index / (nx * ny)
        return origin + spacing * SIMD3(Double(x), Double(y), Double(z))
    }
}
