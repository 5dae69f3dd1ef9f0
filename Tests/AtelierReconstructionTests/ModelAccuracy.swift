import AtelierGeometry
import AtelierReconstruction
import AtelierSynthetic
import Foundation

/// How close a reconstruction came to a synthetic capture's truth, measured as the issue asks:
/// after the similarity that best aligns the estimated camera centres onto the true ones,
/// the rotation error of each camera and its centre error as a fraction of the ring radius.
struct ModelAccuracy {
    var registered: Int
    var rotationErrorsDegrees: [Double]
    var centreErrorsOfRadius: [Double]

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .infinity }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    var medianRotationErrorDegrees: Double { Self.median(rotationErrorsDegrees) }
    var medianCentreErrorOfRadius: Double { Self.median(centreErrorsOfRadius) }

    /// Compares `model` (whose image names are the capture's `img_NNNN.jpg`) with `capture`.
    init?(_ model: SparseModel, capture: SyntheticCapture) {
        var estimated: [CameraPose] = [], truth: [CameraPose] = []
        for image in model.images {
            guard let pose = image.camFromWorld,
                  let index = (0 ..< capture.cameras.count).first(where: { SyntheticCapture.imageName($0) == image.name }) else { continue }
            estimated.append(pose)
            truth.append(capture.cameras[index].pose)
        }
        registered = estimated.count
        guard let alignment = SimilarityTransform.aligning(estimated.map(\.centre), to: truth.map(\.centre)) else { return nil }
        let radius = capture.rings.map(\.radiusMetres).max() ?? 1
        rotationErrorsDegrees = []
        centreErrorsOfRadius = []
        for (e, t) in zip(estimated, truth) {
            let aligned = alignment.apply(e)
            rotationErrorsDegrees.append(Matrix3.angleBetween(aligned.camFromWorld, t.camFromWorld) * 180 / .pi)
            centreErrorsOfRadius.append((aligned.centre - t.centre).length / radius)
        }
    }
}

/// A synthetic capture written to a temporary directory as JPEG photos, as a person's would be.
struct CaptureOnDisk {
    let capture: SyntheticCapture
    let directory: String

    init(_ spec: CaptureSpec) throws {
        capture = try SyntheticCapture(spec: spec)
        directory = NSTemporaryDirectory() + "atelier-capture-\(UUID().uuidString)"
        _ = try CaptureWriter.write(capture, to: directory)
    }

    var sources: [CaptureSource] {
        (0 ..< capture.cameras.count).map { CaptureSource(name: SyntheticCapture.imageName($0), path: directory + "/" + SyntheticCapture.imageName($0)) }
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }
}
