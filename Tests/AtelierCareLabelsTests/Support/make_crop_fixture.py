"""Writes crop-fixture.json: what training/care/data.py cuts from a test image, for CareCropTests
to compare with CareCrop.swift. Run from the repository root after changing either side:

    python3 Tests/AtelierCareLabelsTests/Support/make_crop_fixture.py
"""

import json
import os
import sys

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "training", "care"))
import data  # noqa: E402

rng = np.random.default_rng(7)
h, w = 61, 97
yy, xx = np.mgrid[0:h, 0:w]
image = np.clip(120 + 80 * np.sin(xx / 5.0) * np.cos(yy / 7.0) + rng.normal(0, 12, (h, w)), 0, 255).astype(np.uint8)
image[20:40, 30:34] = 10  # a stroke of ink

boxes = [[30, 18, 8, 24], [-6, -4, 30, 20], [80, 50, 30, 25], [10.5, 12.25, 60.5, 30.75], [45, 30, 3, 2]]
cases = []
for box in boxes:
    crop = data.crop_for_box(image, box)
    cases.append({"box": box, "crop": crop.ravel().tolist(),
                  "normalized": [round(float(v), 6) for v in data.normalize_crop(crop).ravel()]})
scaled = data.scaled(image, 0.37)
fixture = {
    "width": w, "height": h, "pixels": image.ravel().tolist(), "size": 48, "cases": cases,
    "scaled": {"factor": 0.37, "width": scaled.shape[1], "height": scaled.shape[0], "pixels": scaled.ravel().tolist(),
               "normalized": [round(float(v), 6) for v in data.normalize_image(scaled).ravel()]},
}
with open(os.path.join(os.path.dirname(__file__), "crop-fixture.json"), "w") as f:
    json.dump(fixture, f, separators=(",", ":"))
