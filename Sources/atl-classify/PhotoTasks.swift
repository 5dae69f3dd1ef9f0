import AtelierCLI
import AtelierImaging
import AtelierRecords

/// `--task hash`: pHash and dHash added to the image record.
struct HashTask: PhotoTask {
    var minimumSide: Int? { PhotoPreparation.thumbnailSide }

    func classify(_ photo: ImageDecoder.Decoded, input: JSONObject) throws -> JSONObject {
        var record = input
        let grey = photo.image.grey()  // once, for all the hashes
        record["phash"] = .string(PerceptualHash.hex(PerceptualHash.pHash(grey)))
        record["dhash"] = .string(PerceptualHash.hex(PerceptualHash.dHash(grey)))
        record["phashWindows"] = .string(PerceptualHash.hexList(PerceptualHash.windowPHashes(grey)))
        return record
    }
}

/// `--task color`: the garment's dominant colours, as a `color` record that `atl-import`
/// turns into the garment's `color` and `colorName`.
struct ColorTask: PhotoTask {
    var minimumSide: Int? { GarmentColors.workingSide }

    func classify(_ photo: ImageDecoder.Decoded, input: JSONObject) throws -> JSONObject {
        let reading = GarmentColors.read(photo.image)
        var record = Self.reading("color", about: input)
        if let primary = reading.primary {
            record["color"] = .string(primary.hex)
            record["colorName"] = .string(primary.name)
            record["colorGroup"] = .string(primary.group.rawValue)
        }
        record["colors"] = .array(reading.colors.map { color in
            ["hex": .string(color.hex), "name": .string(color.name), "share": .double((color.share * 1000).rounded() / 1000),
             "group": .string(color.group.rawValue)]
        })
        record["backdropExcluded"] = .bool(reading.backdropExcluded)
        return record
    }
}

/// `--task quality`: a photo coach's scores, verdict and advice, as a `quality` record.
struct QualityTask: PhotoTask {
    var minimumSide: Int? { PhotoQuality.workingSide }

    func classify(_ photo: ImageDecoder.Decoded, input: JSONObject) throws -> JSONObject {
        let quality = PhotoQuality.assess(photo.image)
        func rounded(_ x: Double, _ places: Double = 1000) -> JSONValue { .double((x * places).rounded() / places) }
        var record = Self.reading("quality", about: input)
        record["verdict"] = .string(quality.verdict.rawValue)
        record["scores"] = ["exposure": rounded(quality.scores.exposure), "sharpness": rounded(quality.scores.sharpness),
                            "noise": rounded(quality.scores.noise), "framing": rounded(quality.scores.framing),
                            "colour": rounded(quality.scores.colour)]
        var measures: JSONObject = [
            "clippedHighlights": rounded(quality.clippedHighlightsFraction, 10000),
            "crushedShadows": rounded(quality.crushedShadowsFraction, 10000),
            "meanLuma": rounded(quality.meanLuma, 10),
            "sharpness": rounded(quality.normalisedLaplacianVariance),
            "blurRadiusPixels": rounded(quality.blurRadiusPixels, 100),
            "noiseSigma": rounded(quality.noiseSigma, 100),
            "subjectFound": .bool(quality.subjectFound),
        ]
        if quality.subjectFound {
            measures["subjectFraction"] = rounded(quality.subjectFraction)
            measures["subjectCentreOffset"] = rounded(quality.subjectCentreOffset)
            measures["cutOffEdges"] = .array(quality.cutOffEdges.map { .string($0.rawValue) })
        }
        measures["colourCast"] = .string(quality.cast.rawValue)
        measures["castChroma"] = rounded(quality.castChroma)
        record["measures"] = .object(measures)
        record["advice"] = .array(quality.advice.map { .string($0) })
        return record
    }
}

extension PhotoTask {
    /// A new record of `type` about the photo `input` describes: its image id, path and garment.
    static func reading(_ type: String, about input: JSONObject) -> JSONObject {
        var record: JSONObject = ["type": .string(type)]
        if let path = input["path"] { record["path"] = path }
        if let id = input["id"], input["type"] == "image" { record["image"] = id }
        if let garment = input["garment"] { record["garment"] = garment }
        return record
    }
}
