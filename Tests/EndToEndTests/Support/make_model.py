#!/usr/bin/env python3
"""Writes a textured mesh as atl-reconstruct leaves one in mesh/, with code of its own (numpy and
Pillow, not Atelier's writers), for the lookbook's 3D tests.

    make_model.py DIR

DIR/model.ply: binary little-endian PLY, vertex x y z nx ny nz s t, faces as 3-index lists,
`comment TextureFile texture.png`; DIR/texture.png: 256 x 256. The shape is a closed body of
revolution 1 unit tall standing on y = 0 (a dress form's torso), faces wound counter-clockwise
seen from outside. The texture is four quarters round the body (red at the front (+Z), then
green, blue, yellow), so a turned view shows other colours. Prints the vertex and face counts
as JSON.
"""
import json
import math
import os
import sys

import numpy as np
from PIL import Image

RINGS, SEGMENTS = 24, 48


def radius(y):
    return 0.28 + 0.08 * math.sin(math.pi * y) - 0.06 * math.sin(2 * math.pi * y)


def main(out):
    os.makedirs(out, exist_ok=True)
    vertices, faces = [], []
    # A grid of rings (one extra column so the seam has u = 0 and u = 1), plus a pole at each end.
    for i in range(RINGS + 1):
        y = i / RINGS
        r = radius(y)
        for j in range(SEGMENTS + 1):
            a = 2 * math.pi * j / SEGMENTS
            # u = 0 at the front (+Z), going round towards +X.
            x, z = r * math.sin(a), r * math.cos(a)
            n = np.array([math.sin(a), 0.0, math.cos(a)])
            vertices.append((x, y, z, *n, j / SEGMENTS, y))
    bottom, top = len(vertices), len(vertices) + 1
    vertices.append((0, 0, 0, 0, -1, 0, 0.5, 0.0))
    vertices.append((0, 1, 0, 0, 1, 0, 0.5, 1.0))
    row = SEGMENTS + 1
    for i in range(RINGS):
        for j in range(SEGMENTS):
            a, b = i * row + j, i * row + j + 1
            c, d = (i + 1) * row + j, (i + 1) * row + j + 1
            faces += [(a, b, d), (a, d, c)]
    for j in range(SEGMENTS):
        faces.append((bottom, j + 1, j))
        faces.append((top, RINGS * row + j, RINGS * row + j + 1))
    # Check the winding: every face's normal points away from the axis or the poles.
    v = np.array([p[:3] for p in vertices])
    f = np.array(faces)
    normals = np.cross(v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 0]])
    centres = v[f].mean(axis=1) - np.array([0, 0.5, 0])
    assert (np.einsum("ij,ij->i", normals, centres) > 0).all(), "a face is wound inwards"

    header = "\n".join([
        "ply", "format binary_little_endian 1.0", "comment TextureFile texture.png",
        f"element vertex {len(vertices)}",
        *[f"property float {name}" for name in ("x", "y", "z", "nx", "ny", "nz", "s", "t")],
        f"element face {len(faces)}", "property list uchar int vertex_indices", "end_header", "",
    ]).encode()
    body = np.array(vertices, dtype="<f4").tobytes()
    face_dtype = np.dtype([("n", "u1"), ("i", "<i4", (3,))])
    face_rows = np.zeros(len(faces), dtype=face_dtype)
    face_rows["n"] = 3
    face_rows["i"] = faces
    with open(os.path.join(out, "model.ply"), "wb") as ply:
        ply.write(header + body + face_rows.tobytes())

    texture = np.zeros((256, 256, 3), dtype=np.uint8)
    for k, colour in enumerate([(213, 94, 0), (0, 158, 115), (0, 114, 178), (240, 228, 66)]):
        texture[:, k * 64:(k + 1) * 64] = colour
    texture[::32, :] = (40, 40, 40)  # bands round the body, so the shape reads
    Image.fromarray(texture).save(os.path.join(out, "texture.png"))
    print(json.dumps({"vertices": len(vertices), "faces": len(faces)}))


if __name__ == "__main__":
    main(sys.argv[1])
