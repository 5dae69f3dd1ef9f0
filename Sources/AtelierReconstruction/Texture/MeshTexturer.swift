import AtelierFormats
import AtelierImaging

/// Textures a reconstructed mesh from calibrated photos: picks a photo per face, cuts the surface
/// into charts that each copy one photo, packs them into one atlas, and levels exposure and seams.
///
/// The method is that of Waechter, Moehrle and Goesele, "Let there be color! Large-scale
/// texturing of 3D reconstructions" (ECCV 2014, the mvs-texturing library), simplified: view
/// selection by iterated conditional modes instead of graph cuts, per-photo gains instead of
/// global per-vertex levelling, and a vertex-level seam blend instead of Poisson editing. Faces no
/// photo sees unoccluded get their own small cells, shaded from the colours of the seen surface
/// around them. The output is deterministic: the same on one core or many.
public enum MeshTexturer {
    /// Returns the mesh with per-vertex texture coordinates (vertices split along chart seams,
    /// positions unchanged otherwise, triangle order kept) and the atlas as PNG in `texturePNG`.
    ///
    /// `progress` is called on the calling thread with the fraction done, between stages.
    public static func texture(_ mesh: TexturedMesh, views: [TextureView], options: TexturingOptions = .init(),
                               progress: ((Double) -> Void)? = nil) throws(ReconstructionError) -> (mesh: TexturedMesh, report: TexturingReport) {
        let views = try validated(mesh, views: views, options: options)
        let side = options.textureSize, padding = options.paddingPixels
        let topology = FaceTopology(mesh)
        progress?(0.05)

        let quality = FaceVisibility.quality(positions: mesh.positions, triangles: mesh.triangles, topology: topology,
                                             views: views, tolerance: options.occlusionTolerance)
        progress?(0.45)
        let labels = ViewLabelling.labels(quality: quality, viewCount: views.count, topology: topology, smoothness: options.smoothness)
        let charts = TextureChart.charts(labels: labels, triangles: mesh.triangles, positions: mesh.positions,
                                         topology: topology, views: views)
        let unseenFaces = labels.indices.filter { labels[$0] < 0 }.map { Int32($0) }
        progress?(0.55)

        let block = unseenFaces.isEmpty ? nil : AtlasBaker.cellBlock(count: unseenFaces.count).size
        guard let layout = AtlasPacker.pack(extents: charts.map(\.extent), block: block, padding: padding, side: side) else {
            throw .atlasTooSmall(charts: charts.count + (unseenFaces.isEmpty ? 0 : 1), textureSize: side)
        }
        let gains = options.levelExposure
            ? ExposureLevelling.gains(quality: quality, topology: topology, positions: mesh.positions, views: views)
            : [SIMD3<Float>](repeating: .one, count: views.count)
        let seams = SeamLevelling(charts: charts, views: views, gains: gains, topology: topology,
                                  triangles: mesh.triangles, levelSeams: options.levelSeams)
        progress?(0.65)

        let baker = AtlasBaker(side: side, layout: layout)
        var atlas = [UInt8](repeating: 0, count: side * side * 3)
        var mask = [UInt8](repeating: 0, count: side * side)
        baker.bake(charts: charts, views: views, gains: gains, seams: seams, unseenFaces: unseenFaces,
                   triangles: mesh.triangles, atlas: &atlas, mask: &mask)
        let covered = mask.reduce(0) { $0 + Int($1) }
        AtlasDilation.dilate(atlas: &atlas, mask: &mask, side: side, rounds: padding + 1)
        progress?(0.85)

        let png: [UInt8]
        do throws(ImagingError) {
            png = try PNG.encode(Image(width: side, height: side, channels: 3, pixels: atlas))
        } catch {
            throw .textureEncoding(error.description)
        }
        var output = outputMesh(mesh, charts: charts, unseenFaces: unseenFaces, baker: baker)
        output.texturePNG = png
        progress?(1)
        let report = TexturingReport(charts: charts.count, facesWithoutView: unseenFaces.count,
                                     atlasFill: Double(covered) / Double(side * side), scale: Double(layout.scale))
        return (output, report)
    }

    /// The views with RGB images, after checking the mesh, the views and the options.
    private static func validated(_ mesh: TexturedMesh, views: [TextureView], options: TexturingOptions) throws(ReconstructionError) -> [TextureView] {
        guard !mesh.triangles.isEmpty, !mesh.positions.isEmpty else { throw .emptyMesh }
        if let why = mesh.inconsistency { throw .inconsistentMesh(why) }
        guard !views.isEmpty else { throw .noPhotosToTexture }
        guard (256 ... 8192).contains(options.textureSize) else {
            throw .invalidTexturingOption("texture size must be 256…8192 texels, not \(options.textureSize)")
        }
        guard (0 ... 64).contains(options.paddingPixels) else {
            throw .invalidTexturingOption("padding must be 0…64 texels, not \(options.paddingPixels)")
        }
        guard options.smoothness >= 0, options.smoothness.isFinite else {
            throw .invalidTexturingOption("smoothness must be zero or more, not \(options.smoothness)")
        }
        guard (0 ..< 1).contains(options.occlusionTolerance) else {
            throw .invalidTexturingOption("occlusion tolerance must be 0…1, not \(options.occlusionTolerance)")
        }
        var result = views
        for (index, view) in views.enumerated() {
            let intrinsics = view.intrinsics
            guard intrinsics.width > 1, intrinsics.height > 1, intrinsics.focalLengthPixels > 0, intrinsics.focalLengthPixels.isFinite else {
                throw .invalidTextureView(index: index, reason: "unusable intrinsics (\(intrinsics.width)×\(intrinsics.height), f \(intrinsics.focalLengthPixels))")
            }
            guard view.image.width == intrinsics.width, view.image.height == intrinsics.height else {
                throw .invalidTextureView(index: index, reason: "image is \(view.image.width)×\(view.image.height) but its camera is \(intrinsics.width)×\(intrinsics.height)")
            }
            if view.image.channels != 3 { result[index].image = view.image.rgb() }
        }
        return result
    }
}
