#!/usr/bin/env python3
"""usdcheck.py FILE.usdz: what Pixar's `usdchecker` does, from PyPI's usd-core (which ships the
validators but not the command): opens the stage, runs every registered validator, prints each
finding, and exits 1 if there is any. Prints the mesh's points and faces on success."""
import sys

from pxr import Usd, UsdGeom, UsdValidation

stage = Usd.Stage.Open(sys.argv[1])
context = UsdValidation.ValidationContext(UsdValidation.ValidationRegistry().GetOrLoadAllValidators())
findings = context.Validate(stage)
for f in findings:
    print(f"{sys.argv[1]}: {f.GetIdentifier()}: {f.GetMessage()}", file=sys.stderr)
meshes = [UsdGeom.Mesh(p) for p in stage.Traverse() if p.IsA(UsdGeom.Mesh)]
points = sum(len(m.GetPointsAttr().Get()) for m in meshes)
faces = sum(len(m.GetFaceVertexCountsAttr().Get()) for m in meshes)
print(f"{sys.argv[1]}: {'fails' if findings else 'passes'} {len(UsdValidation.ValidationRegistry().GetOrLoadAllValidators())} validators; "
      f"{len(meshes)} mesh, {points} points, {faces} faces, up {UsdGeom.GetStageUpAxis(stage)}, {UsdGeom.GetStageMetersPerUnit(stage)} m per unit")
sys.exit(1 if findings else 0)
