/// Writes a `TexturedMesh` as a USDZ package: the `.usda` layer from `USDAWriter` and the PNG.
///
/// A USDZ is a zip with every file stored (uncompressed), the layer first, and each file's data
/// starting on a 64-byte boundary so readers can map it in place (the USDZ specification,
/// openusd.org/release/spec_usdz.html). ZIPFoundation cannot align data, so the zip is written
/// here: the padding goes into the local header's extra field, as a field of ID 0x1986 filled with
/// zeros (what Pixar's own `UsdZipFileWriter` does). Timestamps are fixed at 1980-01-01 00:00 so
/// the bytes depend on the mesh alone. No zip64: a package past 4 GiB is refused.
public enum USDZWriter {
    /// The package's bytes, for the caller to write atomically. Throws
    /// `FormatError.inconsistentMesh` or `.meshTooLarge`.
    public static func usdz(for mesh: TexturedMesh) throws(FormatError) -> [UInt8] {
        let layer = try USDAWriter.usda(for: mesh)
        var files = [(name: USDAWriter.primName(mesh.name) + ".usda", data: Array(layer.utf8))]
        if let png = mesh.texturePNG, !mesh.textureCoordinates.isEmpty {
            files.append((USDAWriter.packagedTexturePath, png))
        }
        return try storedZip(files)
    }

    /// A zip of `files` in order, stored, with each file's data 64-byte aligned.
    static func storedZip(_ files: [(name: String, data: [UInt8])]) throws(FormatError) -> [UInt8] {
        let limit = UInt64(UInt32.max)
        var out: [UInt8] = []
        out.reserveCapacity(files.reduce(0) { $0 + $1.data.count + 200 } + 22)
        var central: [UInt8] = []
        for file in files {
            let name = Array(file.name.utf8)
            let offset = UInt64(out.count)
            let crc = ZipCRC32.checksum(file.data)
            // The data starts after the 30-byte header, the name and the extra field; an extra
            // field is at least its 4-byte ID and size, so a gap of 1–3 bytes grows by 64.
            var padding = (64 - (out.count + 30 + name.count) % 64) % 64
            if padding > 0 && padding < 4 { padding += 64 }
            guard offset <= limit, UInt64(file.data.count) <= limit else {
                throw .meshTooLarge("USDZ package of \(offset + UInt64(file.data.count)) bytes; a zip without zip64 holds 4 GiB")
            }

            out.append32(0x0403_4b50)
            appendCommonFields(&out, crc: crc, size: UInt32(file.data.count), nameLength: name.count)
            out.append16(UInt16(padding))
            out += name
            if padding > 0 {
                out.append16(0x1986)
                out.append16(UInt16(padding - 4))
                out += [UInt8](repeating: 0, count: padding - 4)
            }
            out += file.data

            central.append32(0x0201_4b50)
            central.append16(20)  // version made by: 2.0, MS-DOS attributes
            appendCommonFields(&central, crc: crc, size: UInt32(file.data.count), nameLength: name.count)
            central.append16(0)  // extra field length
            central.append16(0)  // comment length
            central.append16(0)  // disk number
            central.append16(0)  // internal attributes
            central.append32(0)  // external attributes
            central.append32(UInt32(offset))
            central += name
        }
        let centralOffset = UInt64(out.count)
        guard centralOffset + UInt64(central.count) <= limit, files.count <= Int(UInt16.max) else {
            throw .meshTooLarge("USDZ package of \(centralOffset + UInt64(central.count)) bytes; a zip without zip64 holds 4 GiB")
        }
        out += central
        out.append32(0x0605_4b50)
        out.append16(0)  // this disk
        out.append16(0)  // disk with the central directory
        out.append16(UInt16(files.count))
        out.append16(UInt16(files.count))
        out.append32(UInt32(central.count))
        out.append32(UInt32(centralOffset))
        out.append16(0)  // comment length
        return out
    }

    /// The fields local and central headers share, from "version needed" to the name length.
    private static func appendCommonFields(_ out: inout [UInt8], crc: UInt32, size: UInt32, nameLength: Int) {
        out.append16(20)      // version needed: 2.0
        out.append16(0)       // flags: names are ASCII, sizes known up front
        out.append16(0)       // method: stored
        out.append16(0)       // time 00:00:00
        out.append16(0x0021)  // date 1980-01-01
        out.append32(crc)
        out.append32(size)    // compressed size
        out.append32(size)    // uncompressed size
        out.append16(UInt16(nameLength))
    }
}

/// CRC-32 as zip uses it (ISO 3309 / ITU-T V.42, reflected polynomial 0xEDB88320), table-driven.
enum ZipCRC32 {
    static let table: [UInt32] = (0..<256).map { index in
        var c = UInt32(index)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }
}

private extension Array where Element == UInt8 {
    mutating func append16(_ value: UInt16) { append(UInt8(value & 0xFF)); append(UInt8(value >> 8)) }
    mutating func append32(_ value: UInt32) { for shift in stride(from: 0, to: 32, by: 8) { append(UInt8((value >> UInt32(shift)) & 0xFF)) } }
}
