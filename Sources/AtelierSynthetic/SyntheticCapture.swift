import AtelierImaging

/// A capture ready to render: the scene built from a spec (mesh, textures, studio, lighting) and
/// the cameras placed around it. Rendering a view is a pure function of the spec and the view's
/// index.
public struct SyntheticCapture: Sendable {
    public let spec: CaptureSpec
    public let scene: Scene
    public let intrinsics: PinholeIntrinsics
    public let cameras: [PlacedCamera]
    public let rings: [CameraRing]
    /// The centre of the mesh's bounding box, which the cameras aim at.
    public let objectCentre: SIMD3<Double>
    public let boundingBox: BoundingBox
    public let renderer: Renderer

    public init(spec: CaptureSpec) throws(SyntheticError) {
        try spec.validate()
        self.spec = spec
        let mesh = spec.garment.mesh(seed: spec.seed)
        boundingBox = mesh.boundingBox
        objectCentre = boundingBox.centre
        intrinsics = PinholeIntrinsics(width: spec.width, height: spec.height, focalLength35mm: Double(spec.focalLength35mm))

        let textureImage: Image
        switch spec.resolvedSurface {
        case .photo: textureImage = spec.photoTexture!
        case .printed: textureImage = PrintedFabric(size: spec.textureSize).image(seed: spec.seed)
        case .plainWeave: textureImage = PlainWeave(size: spec.textureSize).image(seed: spec.seed)
        }
        let turntableRadius = Self.turntableRadius(for: boundingBox)
        let turntable = TurntableSurface(size: spec.turntableTextureSize, radiusMetres: turntableRadius)
            .image(seed: spec.seed, hemOutline: HemOutline(mesh: mesh), keyDirection: spec.lighting.key.direction)
        let studio = Studio(turntable: Texture(image: turntable), turntableRadiusMetres: Float(turntableRadius))
        scene = Scene(mesh: mesh, texture: Texture(image: textureImage), lighting: spec.lighting, studio: studio)
        rings = spec.rings
        cameras = CameraRig.place(rings: rings, around: objectCentre, jitter: spec.jitter, seed: spec.seed)
        renderer = Renderer(scene: scene)
    }

    /// A disc reaching 10 cm beyond the garment's widest point.
    static func turntableRadius(for box: BoundingBox) -> Double {
        let reach = max(abs(box.min.x), abs(box.max.x), abs(box.min.z), abs(box.max.z))
        return ((reach + 0.1) * 100).rounded(.up) / 100
    }

    public var turntableRadiusMetres: Double { Double(scene.studio.turntableRadiusMetres) }

    /// `img_0001.jpg` for view 0, and so on.
    public static func imageName(_ index: Int) -> String {
        let digits = String(index + 1)
        return "img_" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ".jpg"
    }

    public var renderSettings: RenderSettings {
        RenderSettings(supersampling: spec.supersampling, sensor: spec.sensor, noiseSeed: spec.seed)
    }

    /// The picture from camera `index`.
    public func render(_ index: Int) -> Image {
        renderer.render(intrinsics: intrinsics, pose: cameras[index].pose, settings: renderSettings, view: index)
    }

    /// The JPEG file of camera `index`, with its EXIF block.
    public func jpeg(_ index: Int) throws(SyntheticError) -> [UInt8] {
        let encoded: [UInt8]
        do {
            encoded = try JPEG.encode(render(index), quality: spec.jpegQuality)
        } catch {
            throw .encodingFailed(error.description)
        }
        return exif.inserted(into: encoded)
    }

    /// The EXIF block every image carries.
    public var exif: EXIFBlock {
        EXIFBlock(pixelWidth: spec.width, pixelHeight: spec.height, focalLength35mm: spec.focalLength35mm)
    }

    /// The ground truth as `scene.json` holds it.
    public var sceneDescription: SceneDescription {
        let mesh = scene.mesh
        return SceneDescription(
            preset: spec.preset.rawValue, seed: spec.seed, surface: spec.resolvedSurface.rawValue,
            camera: .init(width: intrinsics.width, height: intrinsics.height, fx: intrinsics.focalLengthXPixels,
                          fy: intrinsics.focalLengthYPixels, cx: intrinsics.principalPointX, cy: intrinsics.principalPointY,
                          focalLength35mm: spec.focalLength35mm),
            rings: rings.map { .init(elevationDegrees: $0.elevationDegrees, radiusMetres: $0.radiusMetres, views: $0.views,
                                     azimuthOffsetDegrees: $0.azimuthOffsetDegrees) },
            jitter: .init(radiusFraction: spec.jitter.radiusFraction, elevationDegrees: spec.jitter.elevationDegrees,
                          azimuthDegrees: spec.jitter.azimuthDegrees, aimMetres: spec.jitter.aimMetres, rollDegrees: spec.jitter.rollDegrees),
            objectCentre: Self.array(objectCentre),
            boundingBox: .init(min: Self.array(boundingBox.min), max: Self.array(boundingBox.max)),
            turntableRadiusMetres: turntableRadiusMetres,
            mesh: .init(vertices: mesh.positions.count, faces: mesh.triangles.count),
            render: .init(supersampling: spec.supersampling, jpegQuality: spec.jpegQuality, vignetting: Double(spec.sensor.vignetting),
                          noiseLevels: Double(spec.sensor.noiseLevels), textureSize: spec.textureSize),
            images: cameras.enumerated().map { index, camera in
                let q = camera.pose.quaternion
                return .init(id: index + 1, name: Self.imageName(index), ring: camera.ring, qvec: [q.w, q.x, q.y, q.z],
                             tvec: Self.array(camera.pose.translation), centre: Self.array(camera.pose.centre),
                             azimuthDegrees: camera.azimuthDegrees, elevationDegrees: camera.elevationDegrees,
                             distanceMetres: camera.distanceMetres)
            })
    }

    private static func array(_ v: SIMD3<Double>) -> [Double] { [v.x, v.y, v.z] }
}
