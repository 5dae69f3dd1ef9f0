import AtelierGeometry
import AtelierImaging
import AtelierRecords
import Dispatch

/// A software rasteriser for a `Scene`: the picture a pinhole camera at a known pose would take.
///
/// Per view it projects the mesh onto a supersampled grid (vertices snapped to 1/256 of a sample,
/// integer edge functions with a tie rule, so triangles that share an edge neither overlap nor
/// leave a crack), keeps the nearest triangle per sample in a depth buffer, then shades each
/// sample once: perspective-correct texture coordinates, normals and occlusion; trilinear
/// texture filtering at the level of detail of the sample's footprint; Lambertian lighting.
/// Samples that miss the mesh see the turntable, floor or backdrop, found by casting the
/// sample's ray at the ground plane. Samples are averaged in linear light, then vignetting, sRGB
/// encoding and sensor noise make the 8-bit pixel.
///
/// The image is cut into fixed bands of rows rendered independently on both cores, so the
/// result is the same whatever the thread count.
public final class Renderer: @unchecked Sendable {
    public let scene: Scene
    let positions: FixedBuffer<SIMD3<Float>>
    let normals: FixedBuffer<SIMD3<Float>>
    let uvs: FixedBuffer<SIMD2<Float>>
    let occlusion: FixedBuffer<Float>
    let triangles: FixedBuffer<SIMD3<UInt32>>

    /// Pixel rows per band of work.
    static let bandPixelRows = 8

    public init(scene: Scene) {
        self.scene = scene
        positions = FixedBuffer(scene.mesh.positions)
        normals = FixedBuffer(scene.mesh.normals)
        uvs = FixedBuffer(scene.mesh.uvs)
        occlusion = FixedBuffer(scene.mesh.occlusion)
        triangles = FixedBuffer(scene.mesh.triangles)
    }

    /// The picture from one camera. `view` picks the sensor noise (with `settings.noiseSeed`).
    public func render(intrinsics: PinholeIntrinsics, pose: CameraPose, settings: RenderSettings = RenderSettings(), view: Int = 0) -> Image {
        render(intrinsics: intrinsics, pose: pose, settings: settings, view: view, keepVisibility: false).image
    }

    /// The picture and which triangle each supersample saw.
    public func renderWithVisibility(intrinsics: PinholeIntrinsics, pose: CameraPose, settings: RenderSettings = RenderSettings(),
                                     view: Int = 0) -> (image: Image, visibility: VisibilityBuffer) {
        let result = render(intrinsics: intrinsics, pose: pose, settings: settings, view: view, keepVisibility: true)
        return (result.image, result.visibility!)
    }

    private func render(intrinsics: PinholeIntrinsics, pose: CameraPose, settings: RenderSettings, view: Int,
                        keepVisibility: Bool) -> (image: Image, visibility: VisibilityBuffer?) {
        precondition(intrinsics.width > 0 && intrinsics.height > 0 && (1 ... 8).contains(settings.supersampling))
        let ss = settings.supersampling
        let setup = ViewSetup(positions: positions, triangles: triangles, intrinsics: intrinsics, pose: pose,
                              supersampling: ss, bandPixelRows: Self.bandPixelRows)
        let sampleCount = keepVisibility ? setup.samplesWide * setup.samplesHigh : 0
        var visibleTriangles = [Int32](repeating: -1, count: sampleCount)
        var visibleBarycentrics = [SIMD2<Float>](repeating: .zero, count: sampleCount)
        var pixels = [UInt8](repeating: 0, count: intrinsics.width * intrinsics.height * 3)

        withExtendedLifetime((self, scene.texture, scene.studio.turntable, setup)) {
            visibleTriangles.withUnsafeMutableBufferPointer { triangleOut in
                visibleBarycentrics.withUnsafeMutableBufferPointer { barycentricOut in
                    pixels.withUnsafeMutableBufferPointer { pixelOut in
                        let job = BandJob(renderer: self, setup: setup, intrinsics: intrinsics, pose: pose, settings: settings, view: view,
                                          pixels: SharedPointer(base: pixelOut.baseAddress!),
                                          visibleTriangles: keepVisibility ? SharedPointer(base: triangleOut.baseAddress!) : nil,
                                          visibleBarycentrics: keepVisibility ? SharedPointer(base: barycentricOut.baseAddress!) : nil)
                        if settings.concurrent {
                            DispatchQueue.concurrentPerform(iterations: setup.bandCount) { job.run(band: $0) }
                        } else {
                            for band in 0 ..< setup.bandCount { job.run(band: band) }
                        }
                    }
                }
            }
        }
        let image = Image(width: intrinsics.width, height: intrinsics.height, channels: 3, pixels: pixels)
        guard keepVisibility else { return (image, nil) }
        return (image, VisibilityBuffer(width: setup.samplesWide, height: setup.samplesHigh, supersampling: ss,
                                        triangles: visibleTriangles, barycentrics: visibleBarycentrics))
    }
}
