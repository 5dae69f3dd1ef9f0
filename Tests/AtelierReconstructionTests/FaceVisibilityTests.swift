@testable import AtelierReconstruction
import AtelierGeometry
import AtelierImaging
import XCTest

/// The data term of view selection prefers the sharper of two equally good views.
final class FaceVisibilityTests: XCTestCase {
    /// Fine stripes: a print whose detail a blurred photo loses.
    static func stripes(_ p: SIMD3<Double>) -> SIMD3<Double> {
        let n = p.normalized
        let v = 128 + 90 * sin(40 * n.y) * cos(40 * n.x)
        return [v, v * 0.8 + 20, 255 - v]
    }

    /// A box blur of `radius` pixels.
    static func blurred(_ image: Image, radius: Int) -> Image {
        var out = image.pixels
        for y in 0 ..< image.height {
            for x in 0 ..< image.width {
                var sum = SIMD3<Int>.zero, n = 0
                for dy in -radius ... radius {
                    for dx in -radius ... radius {
                        let xx = min(max(x + dx, 0), image.width - 1), yy = min(max(y + dy, 0), image.height - 1)
                        let i = (yy * image.width + xx) * 3
                        sum &+= SIMD3(Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2]))
                        n += 1
                    }
                }
                for k in 0 ..< 3 { out[(y * image.width + x) * 3 + k] = UInt8(sum[k] / n) }
            }
        }
        return Image(width: image.width, height: image.height, channels: 3, pixels: out)
    }

    /// Two cameras in mirror-image places, so mirrored faces get the same area and angle.
    static let poses = [CameraPose(centre: [3.5 * sin(0.3), 0, 3.5 * cos(0.3)], lookingAt: .zero),
                        CameraPose(centre: [-3.5 * sin(0.3), 0, 3.5 * cos(0.3)], lookingAt: .zero)]

    /// The share of the faces both views see for which the first view scores higher: of them all,
    /// and of those near the plane of symmetry (|x| < 0.2), which both see equally well.
    static func firstWins(_ first: Image, _ second: Image) -> (all: Double, middle: Double, both: Int) {
        let mesh = MeshTexturerTests.sphere()
        let views = [TextureView(intrinsics: MeshTexturerTests.intrinsics, pose: poses[0], image: first),
                     TextureView(intrinsics: MeshTexturerTests.intrinsics, pose: poses[1], image: second)]
        let topology = FaceTopology(mesh)
        let quality = FaceVisibility.quality(positions: mesh.positions, triangles: mesh.triangles, topology: topology,
                                             views: views, tolerance: 0.01)
        let faces = mesh.triangles.count
        var wins = 0, both = 0, middleWins = 0, middle = 0
        for f in 0 ..< faces where quality[f] > 0 && quality[faces + f] > 0 {
            let won = quality[f] > quality[faces + f]
            both += 1
            if won { wins += 1 }
            if abs(topology.centroids[f].x) < 0.2 {
                middle += 1
                if won { middleWins += 1 }
            }
        }
        return (Double(wins) / Double(max(1, both)), Double(middleWins) / Double(max(1, middle)), both)
    }

    func testABlurredPhotoLosesToASharpOneFromAnEquallyGoodPlace() {
        let sharp = Self.poses.map { MeshTexturerTests.render($0, paint: Self.stripes) }
        // Both sharp: each view wins on its own side, about half each.
        let even = Self.firstWins(sharp[0], sharp[1])
        XCTAssertGreaterThan(even.both, 500)
        XCTAssertEqual(even.all, 0.5, accuracy: 0.1)
        XCTAssertEqual(even.middle, 0.5, accuracy: 0.25)
        // The second blurred: the first wins where both see equally well, and further round.
        let blurredSecond = Self.firstWins(sharp[0], Self.blurred(sharp[1], radius: 3))
        XCTAssertGreaterThan(blurredSecond.middle, 0.9)
        XCTAssertGreaterThan(blurredSecond.all, even.all + 0.1)
        // And the other way round.
        let blurredFirst = Self.firstWins(Self.blurred(sharp[0], radius: 3), sharp[1])
        XCTAssertLessThan(blurredFirst.middle, 0.1)
        XCTAssertLessThan(blurredFirst.all, even.all - 0.1)
    }
}
