/// The garment's surface: a busy print, a plain low-texture weave, or a photo the caller gives.
public enum SurfaceKind: String, Sendable, CaseIterable {
    case printed
    case plainWeave = "plain-weave"
    case photo
}

/// The named captures: how many views, on which rings, of which surface.
///
/// - `textured-24`: the printed fabric, 24 views on one ring at 25°: the easy case, for
///   accuracy figures.
/// - `fabric-30`: the plain weave, 30 views on two rings of 15 (15° and 40°, the upper ring
///   staggered by half a step): the hard, low-texture case.
/// - `small-12`: the printed fabric, 12 views on one ring at 25°: quick, for tests and smoke runs.
public enum CapturePreset: String, Sendable, CaseIterable {
    case textured24 = "textured-24"
    case fabric30 = "fabric-30"
    case small12 = "small-12"

    /// Distance from the object centre to the cameras: with the default 35 mm equivalent lens the
    /// garment fills about two thirds of the frame height, and the turntable stays in view.
    public static let ringRadiusMetres = 1.5

    public var surface: SurfaceKind {
        switch self {
        case .textured24, .small12: return .printed
        case .fabric30: return .plainWeave
        }
    }

    /// Ring elevations in degrees, lowest first.
    public var elevationsDegrees: [Double] {
        switch self {
        case .textured24, .small12: return [25]
        case .fabric30: return [15, 40]
        }
    }

    public var views: Int {
        switch self {
        case .textured24: return 24
        case .fabric30: return 30
        case .small12: return 12
        }
    }

    /// The rings for `views` cameras in all (the preset's own count when nil), shared out as
    /// evenly as the rings allow, lower rings first; each ring after the first is staggered by
    /// half its angular step.
    public func rings(views: Int? = nil, radiusMetres: Double = CapturePreset.ringRadiusMetres) -> [CameraRing] {
        let total = views ?? self.views, count = elevationsDegrees.count
        return elevationsDegrees.enumerated().map { index, elevation in
            let share = total / count + (index < total % count ? 1 : 0)
            let offset = index == 0 ? 0 : 180 / Double(max(share, 1))
            return CameraRing(elevationDegrees: elevation, radiusMetres: radiusMetres, views: share, azimuthOffsetDegrees: offset)
        }
    }
}
