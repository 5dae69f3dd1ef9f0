#!/usr/bin/env python3
"""Writes the network fixtures NetworkTests.swift reads: three small random networks in the
.atlnn format and, for each, a few inputs with the outputs computed here independently of the
Swift engine (plain direct loops in float64, no im2col, no BLAS).

    python3 make_network_fixture.py        # rewrites the files beside this script

Together the networks use every op and option the format has:
  tiny  2x13x11 classifier, normalised: conv k3 s1 p1 relu, conv k5 s2 p1 sigmoid, depthwise
        k3 s1 p1 relu, maxpool 2, conv k1 none, globalavgpool, dense none
  flat  1x15x16, not normalised: conv k3 s3 p1 relu, depthwise k2 s1 p0 sigmoid, depthwise
        k3 s3 p1 none, dense over the flattened 3x2x2 map sigmoid, dense none
  fcn   any size (run on 1x37x53 and 1x29x31), normalised: conv k3 s1 p0 relu, depthwise k5
        s2 p1 none, conv k1 s2 p0 sigmoid, conv k3 s1 p1 relu, maxpool 3 (with a remainder),
        conv k1 none; the output is a 3-channel map
Only numpy is needed; the seed is fixed, so the files only change when this script does.
"""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20261121)


def conv_weights(in_channels, out, kernel, groups=1):
    fan_in = in_channels // groups * kernel * kernel
    weight = rng.normal(0.0, np.sqrt(2.0 / fan_in), (out, in_channels // groups, kernel, kernel))
    bias = rng.normal(0.0, 0.1, out)
    return weight.astype(np.float32), bias.astype(np.float32)


def dense_weights(in_features, out):
    weight = rng.normal(0.0, np.sqrt(2.0 / in_features), (out, in_features))
    bias = rng.normal(0.0, 0.1, out)
    return weight.astype(np.float32), bias.astype(np.float32)


def activate(x, name):
    if name == "relu":
        return np.maximum(x, 0.0)
    if name == "sigmoid":
        return 1.0 / (1.0 + np.exp(-x))
    assert name == "none"
    return x


def reference_conv(x, weight, bias, stride, pad, groups):
    """Direct convolution, one output value at a time."""
    channels, height, width = x.shape
    out, per_group, kernel, _ = weight.shape
    padded = np.zeros((channels, height + 2 * pad, width + 2 * pad))
    padded[:, pad:pad + height, pad:pad + width] = x
    out_height = (height + 2 * pad - kernel) // stride + 1
    out_width = (width + 2 * pad - kernel) // stride + 1
    y = np.zeros((out, out_height, out_width))
    outs_per_group = out // groups
    for o in range(out):
        first = (o // outs_per_group) * per_group
        for i in range(out_height):
            for j in range(out_width):
                total = float(bias[o])
                for c in range(per_group):
                    for ky in range(kernel):
                        for kx in range(kernel):
                            total += float(weight[o, c, ky, kx]) * padded[first + c, i * stride + ky, j * stride + kx]
                y[o, i, j] = total
    return y


def reference_maxpool(x, size):
    channels, height, width = x.shape
    y = np.zeros((channels, height // size, width // size))
    for c in range(channels):
        for i in range(height // size):
            for j in range(width // size):
                y[c, i, j] = max(x[c, i * size + dy, j * size + dx] for dy in range(size) for dx in range(size))
    return y


def reference(network, x):
    """The network's output for x (float32 values in [0, 1]), in float64."""
    y = x.astype(np.float64)
    norm = network["header"].get("normalize")
    if norm:
        y = (y - norm["mean"]) / norm["std"]
    tensors = iter(network["tensors"])
    for layer in network["header"]["layers"]:
        op = layer["op"]
        if op == "conv":
            weight, bias = next(tensors), next(tensors)
            y = reference_conv(y, weight, bias, layer.get("stride", 1), layer.get("pad", 0), layer.get("groups", 1))
            y = activate(y, layer["activation"])
        elif op == "maxpool":
            y = reference_maxpool(y, layer["size"])
        elif op == "globalavgpool":
            y = y.mean(axis=(1, 2)).reshape(-1, 1, 1)
        elif op == "dense":
            weight, bias = next(tensors), next(tensors)
            flat = y.reshape(-1)  # C, H, W order
            y = np.array([float(bias[o]) + sum(float(weight[o, i]) * flat[i] for i in range(flat.size))
                          for o in range(weight.shape[0])]).reshape(-1, 1, 1)
            y = activate(y, layer["activation"])
        else:
            raise ValueError(op)
    return y


def build(name, input_shape, normalize, layers):
    """Random weights for the layers, following the shapes from input_shape (C, H, W)."""
    channels, height, width = input_shape
    tensors = []
    for layer in layers:
        if layer["op"] == "conv":
            weight, bias = conv_weights(channels, layer["out"], layer["kernel"], layer.get("groups", 1))
            tensors += [weight, bias]
            channels = layer["out"]
        elif layer["op"] == "globalavgpool":
            height = width = 1
        elif layer["op"] == "dense":
            # The flattened size needs the spatial size; the fixtures only use dense with a
            # fixed input or after a global pool, where it is known.
            sample = np.zeros((input_shape[0], input_shape[1] or 1, input_shape[2] or 1))
            partial = {"header": {"layers": layers[:layers.index(layer)]}, "tensors": tensors}
            features = reference(partial, sample).size
            weight, bias = dense_weights(features, layer["out"])
            tensors += [weight, bias]
    header = {"name": name,
              "input": {"channels": input_shape[0], "height": input_shape[1], "width": input_shape[2]}}
    if normalize:
        header["normalize"] = {"mean": normalize[0], "std": normalize[1]}
    header["layers"] = layers
    return {"header": header, "tensors": tensors}


def write_network(network, path):
    with open(path, "wb") as f:
        f.write(b"atelier-network 1\n")
        f.write(json.dumps(network["header"], separators=(",", ":")).encode() + b"\n")
        for tensor in network["tensors"]:
            f.write(np.ascontiguousarray(tensor, dtype="<f4").tobytes())


def tensor_json(values, shape, digits):
    flat = np.asarray(values).reshape(-1)
    if digits is None:  # float32 inputs: the shortest text that reads back as the same float32
        text = [np.format_float_positional(np.float32(v), unique=True, trim="-") for v in flat]
    else:
        text = [format(float(v), ".%dg" % digits) for v in flat]
    return {"shape": list(shape), "values": [float(t) for t in text]}


def write_cases(network, file_name, inputs, path):
    cases = []
    for x in inputs:
        y = reference(network, x)
        cases.append({"input": tensor_json(x, x.shape, None), "output": tensor_json(y, y.shape, 9)})
    with open(path, "w") as f:
        json.dump({"network": file_name, "cases": cases}, f, separators=(",", ":"))
        f.write("\n")


def image(shape):
    return rng.random(shape).astype(np.float32)


def main():
    tiny = build("tiny", (2, 13, 11), (0.4, 0.3), [
        {"op": "conv", "out": 4, "kernel": 3, "stride": 1, "pad": 1, "activation": "relu"},
        {"op": "conv", "out": 6, "kernel": 5, "stride": 2, "pad": 1, "activation": "sigmoid"},
        {"op": "conv", "out": 6, "kernel": 3, "stride": 1, "pad": 1, "groups": 6, "activation": "relu"},
        {"op": "maxpool", "size": 2},
        {"op": "conv", "out": 5, "kernel": 1, "stride": 1, "pad": 0, "activation": "none"},
        {"op": "globalavgpool"},
        {"op": "dense", "out": 4, "activation": "none"},
    ])
    tiny["header"]["classes"] = ["wash-30", "bleach-no", "tumble-low", "none"]
    tiny["header"]["meta"] = {"trainedOn": "nothing", "seed": 20261121, "nested": {"list": [1, 2.5, None]}}

    flat = build("flat", (1, 15, 16), None, [
        {"op": "conv", "out": 3, "kernel": 3, "stride": 3, "pad": 1, "activation": "relu"},
        {"op": "conv", "out": 3, "kernel": 2, "stride": 1, "pad": 0, "groups": 3, "activation": "sigmoid"},
        {"op": "conv", "out": 3, "kernel": 3, "stride": 3, "pad": 1, "groups": 3, "activation": "none"},
        {"op": "dense", "out": 6, "activation": "sigmoid"},
        {"op": "dense", "out": 3, "activation": "none"},
    ])

    fcn = build("fcn", (1, None, None), (0.5, 0.25), [
        {"op": "conv", "out": 4, "kernel": 3, "stride": 1, "pad": 0, "activation": "relu"},
        {"op": "conv", "out": 4, "kernel": 5, "stride": 2, "pad": 1, "groups": 4, "activation": "none"},
        {"op": "conv", "out": 6, "kernel": 1, "stride": 2, "pad": 0, "activation": "sigmoid"},
        {"op": "conv", "out": 8, "kernel": 3, "stride": 1, "pad": 1, "activation": "relu"},
        {"op": "maxpool", "size": 3},
        {"op": "conv", "out": 3, "kernel": 1, "stride": 1, "pad": 0, "activation": "none"},
    ])

    for network, name, inputs in [
        (tiny, "tiny", [image((2, 13, 11)) for _ in range(3)]),
        (flat, "flat", [image((1, 15, 16)) for _ in range(3)]),
        (fcn, "fcn", [image((1, 37, 53)), image((1, 29, 31))]),
    ]:
        write_network(network, os.path.join(HERE, name + ".atlnn"))
        write_cases(network, name + ".atlnn", inputs, os.path.join(HERE, "network-%s.json" % name))


if __name__ == "__main__":
    main()
