import AtelierGeometry
import AtelierRecords
import Foundation

extension BandJob {
    /// Shades every sample of the band's pixel rows, averages each pixel's samples in linear
    /// light, and writes the pixel: vignetting, sRGB encoding, sensor noise, rounding.
    func shade(pixelRows: Range<Int>, sampleRow0: Int, depth: UnsafeMutablePointer<Float>,
               ids: UnsafeMutablePointer<Int32>, barycentrics: UnsafeMutablePointer<SIMD2<Float>>) {
        let inverseSS = 1 / Float(ss), sampleWeight = 1 / Float(ss * ss)
        let cornerSquared = principal.x * principal.x + principal.y * principal.y
        // How far a sample's ray moves, in world directions, from one sample to the next.
        let stepRight = right / (focal.x * Float(ss)), stepDown = down / (focal.y * Float(ss))
        for py in pixelRows {
            for px in 0 ..< width {
                var sum = SIMD3<Float>.zero
                for sy in 0 ..< ss {
                    let ys = py * ss + sy
                    let cameraY = ((Float(ys) + 0.5) * inverseSS - principal.y) / focal.y
                    let line = (ys - sampleRow0) * samplesWide
                    for sx in 0 ..< ss {
                        let xs = px * ss + sx
                        let cameraX = ((Float(xs) + 0.5) * inverseSS - principal.x) / focal.x
                        // The sample's ray in world directions, scaled to camera depth 1.
                        let ray = right * cameraX + down * cameraY + forward
                        let at = line + xs
                        let id = ids[at]
                        let groundDepth: Float = ray.y < 0 ? -centre.y / ray.y : .infinity
                        if id >= 0 && depth[at] * groundDepth >= 1 {
                            sum += surface(setups[Int(id)], barycentrics[at], ray: ray)
                        } else if ray.y < 0 {
                            sum += ground(ray: ray, depth: groundDepth, stepRight: stepRight, stepDown: stepDown)
                        } else {
                            sum += backdrop(ray: ray)
                        }
                    }
                }
                var colour = sum * sampleWeight
                if vignetting > 0 {
                    let dx = Float(px) + 0.5 - principal.x, dy = Float(py) + 0.5 - principal.y
                    colour *= 1 - vignetting * (dx * dx + dy * dy) / cornerSquared
                }
                write(colour, x: px, y: py)
            }
        }
    }

    /// The garment at a sample: texture × light.
    @inline(__always)
    private func surface(_ s: TriangleSetup, _ l: SIMD2<Float>, ray: SIMD3<Float>) -> SIMD3<Float> {
        let i0 = Int(s.v0), i1 = Int(s.v1), i2 = Int(s.v2)
        let w = SIMD3(inverseDepth[i0], inverseDepth[i1], inverseDepth[i2])
        let p = SIMD3(1 - l.x - l.y, l.x, l.y) * w
        let inverseW = 1 / (p.x + p.y + p.z)
        let b = p * inverseW
        let uv0 = uvs[i0], uv1 = uvs[i1], uv2 = uvs[i2]
        let uv = uv0 * b.x + uv1 * b.y + uv2 * b.z

        // Level of detail from the texture-space footprint of one sample step. u·w, v·w and w
        // are affine on the screen, so ∂u/∂x = (∂(u·w)/∂x − u ∂w/∂x) / w.
        let g1 = s.gradient1, g2 = s.gradient2, g0 = -(g1 + g2)
        let dw = g0 * w.x + g1 * w.y + g2 * w.z
        let q0 = uv0 * w.x, q1 = uv1 * w.y, q2 = uv2 * w.z
        let texels = SIMD2(garment.width, garment.height)
        let alongX = (q0 * g0.x + q1 * g1.x + q2 * g2.x - uv * dw.x) * inverseW * texels
        let alongY = (q0 * g0.y + q1 * g1.y + q2 * g2.y - uv * dw.y) * inverseW * texels
        let footprint = max((alongX * alongX).sum(), (alongY * alongY).sum())
        let albedo = garment.sample(uv.x, uv.y, lod: 0.5 * log2(max(footprint, 1e-12)))

        var normal = (normals[i0] * b.x + normals[i1] * b.y + normals[i2] * b.z).normalized
        // Which side of the cloth is seen follows from the triangle's winding on screen (a mesh
        // wound counter-clockwise from outside appears clockwise, `swapped`, from outside), not
        // from the interpolated normal, which can tilt away from the camera near a silhouette and
        // would flip the shading there. Seen from inside, through the hem, the normal turns round.
        if !s.swapped { normal = -normal }
        let occluded = occlusion[i0] * b.x + occlusion[i1] * b.y + occlusion[i2] * b.z
        return albedo * lighting.irradiance(normal: normal, occlusion: occluded)
    }

    /// The ground where the sample's ray meets it, `depth` along the ray (camera depth).
    @inline(__always)
    private func ground(ray: SIMD3<Float>, depth t: Float, stepRight: SIMD3<Float>, stepDown: SIMD3<Float>) -> SIMD3<Float> {
        let hit = centre + ray * t
        let rho = (hit.x * hit.x + hit.z * hit.z).squareRoot()
        if rho < turntableRadius {
            // The hit point moves by t (Δray − ray Δray.y / ray.y) when the ray moves by Δray.
            let acrossX = (stepRight - ray * (stepRight.y / ray.y)) * t
            let acrossY = (stepDown - ray * (stepDown.y / ray.y)) * t
            let texel = 2 * turntableRadius / turntable.width
            let footprint = max(acrossX.dot(acrossX), acrossY.dot(acrossY)) / (texel * texel)
            let albedo = turntable.sample(hit.x / (2 * turntableRadius) + 0.5, hit.z / (2 * turntableRadius) + 0.5,
                                          lod: 0.5 * log2(max(footprint, 1e-12)))
            return albedo * groundLight
        }
        let floor = studio.floor * groundLight
        return floor + (studio.horizon - floor) * smoothstep(studio.fadeStart, studio.fadeEnd, rho)
    }

    /// The backdrop in the sample's direction: a gradient from the horizon up.
    @inline(__always)
    private func backdrop(ray: SIMD3<Float>) -> SIMD3<Float> {
        let elevation = ray.y / ray.length
        return studio.horizon + (studio.zenith - studio.horizon) * smoothstep(0, 0.7, elevation)
    }

    /// Encodes a linear colour to 8-bit sRGB with sensor noise: per channel, the sum of three
    /// uniform variates (close to Gaussian) from a hash of the view and pixel, so the noise is
    /// the same whichever thread drew the pixel.
    @inline(__always)
    private func write(_ colour: SIMD3<Float>, x: Int, y: Int) {
        let out = pixels.base + 3 * (y * width + x)
        var h = SplitMix64.mix(noiseKey ^ UInt64(y * width + x))
        for channel in 0 ..< 3 {
            var code = ColourSpace.encode(colour[channel])
            if noiseLevels > 0 {
                let u = Float(h & 0x1F_FFFF) + Float(h >> 21 & 0x1F_FFFF) + Float(h >> 42 & 0x1F_FFFF)
                code += (u * (1 / 2_097_152) - 1.5) * 2 * noiseLevels
                h = SplitMix64.mix(h)
            }
            out[channel] = UInt8(min(max(code + 0.5, 0), 255))
        }
    }
}
