import AtelierImaging
import Foundation

/// Gives each point the mean colour of the pixels under its observations, for `points3D.txt`
/// and viewers. Each registered photo is decoded once, in colour; a photo that fails to decode
/// now (it decoded for features) just contributes nothing.
enum PointColours {
    static func assign(to model: inout SparseModel, sources: [CaptureSource], keypoints: [[SIMD2<Double>]]) {
        var sums = [SIMD3<Double>](repeating: .zero, count: model.points.count)
        var counts = [Int](repeating: 0, count: model.points.count)
        for image in model.registeredImages {
            guard let bytes = try? Array(Data(contentsOf: URL(fileURLWithPath: sources[image].path))),
                  let decoded = try? bytes.withUnsafeBytes({ buffer throws(ImagingError) in try ImageDecoder.decode(buffer, channels: 3) }) else { continue }
            let picture = decoded.image
            let scaleX = Double(picture.width) / Double(model.intrinsics(of: image).width)
            let scaleY = Double(picture.height) / Double(model.intrinsics(of: image).height)
            for (k, id) in model.pointOfKeypoint[image].enumerated() where id >= 0 {
                let p = keypoints[image][k]
                let x = min(picture.width - 1, max(0, Int(p.x * scaleX))), y = min(picture.height - 1, max(0, Int(p.y * scaleY)))
                let offset = (y * picture.width + x) * 3
                sums[Int(id)] += SIMD3(Double(picture.pixels[offset]), Double(picture.pixels[offset + 1]), Double(picture.pixels[offset + 2]))
                counts[Int(id)] += 1
            }
        }
        for id in model.points.indices where counts[id] > 0 && model.points[id] != nil {
            let mean = sums[id] / Double(counts[id])
            model.points[id]!.colour = SIMD3(UInt8(mean.x.rounded()), UInt8(mean.y.rounded()), UInt8(mean.z.rounded()))
        }
    }
}
