import AtelierCLI
import AtelierCareLabels
import AtelierImaging
import AtelierRecords
import AtelierWardrobe

/// `--task care`: the care symbols on a label photo, with their boxes and confidences and the
/// constraints they imply, as a `care` record that `atl-import` stores on the garment.
struct CareTask: PhotoTask {
    let reader: CareLabelReader
    let minConfidence: Double

    /// Symbols stay legible at this size; a phone photo decodes at a quarter of its pixels.
    var minimumSide: Int? { 720 }

    func classify(_ photo: ImageDecoder.Decoded, input: JSONObject) throws -> JSONObject {
        let symbols = reader.read(photo.image, minConfidence: minConfidence)
        // Boxes are reported in pixels of the upright photo at full size, whatever the decode scale.
        let scale = Double(photo.uprightWidth) / Double(max(1, photo.image.width))
        var record = Self.reading("care", about: input)
        record["symbols"] = .array(symbols.map { read in
            let box = read.box
            func px(_ v: Double) -> JSONValue { .double((v * scale * 10).rounded() / 10) }
            return ["code": .string(read.symbol.code), "confidence": .double((read.confidence * 1000).rounded() / 1000),
                    "box": [px(box.x), px(box.y), px(box.width), px(box.height)]]
        })
        record["constraints"] = .object(symbols.reduce(CareConstraints()) { $0.combined(with: $1.symbol.constraints) }.jsonObject)
        return record
    }
}
