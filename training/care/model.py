"""The networks of `atl-classify --task care`, described as plain layer lists (the detail
networks, temperature and tumble, have the classifier's layers, with seven and five outputs).

The same list drives three things: the JAX forward pass used for training, the exporter that writes
the `.atlnn` file, and (through that file) the Swift engine in Sources/AtelierCareLabels/Network.
Keeping one description means the three cannot drift apart.
"""

import jax
import jax.numpy as jnp
import numpy as np

# Input crops of the classifier: the symbol's box, squared and widened by CROP_MARGIN, resized.
CLASSIFIER_SIZE = 64
CROP_MARGIN = 1.25

# The detector predicts, per cell of DETECTOR_STRIDE pixels: a centre score (logit), the box's
# log width and log height in units of the stride, and the centre's offset inside the cell.
DETECTOR_STRIDE = 8
DETECTOR_OUTPUTS = 5
# Symbol heights (pixels, at the scale the detector sees) that count as positives; the Swift side
# runs an image pyramid with factor-2 steps, so every symbol falls in the band at one scale at least.
DETECTOR_BAND = (12.0, 36.0)


def conv(out, kernel=3, stride=1, activation="relu"):
    return {"op": "conv", "out": out, "kernel": kernel, "stride": stride, "pad": kernel // 2, "activation": activation}


CLASSIFIER_LAYERS = [
    conv(16), conv(24, stride=2), conv(32), conv(48, stride=2), conv(64), conv(96, stride=2), conv(128),
    {"op": "maxpool", "size": 2},
    {"op": "dense", "out": 128, "activation": "relu"},
    {"op": "dense", "out": None, "activation": "none"},  # out = number of classes
]

DETECTOR_LAYERS = [
    conv(8, stride=2), conv(16), conv(24, stride=2), conv(32), conv(48, stride=2), conv(48), conv(48),
    conv(DETECTOR_OUTPUTS, kernel=1, activation="none"),
]


def resolve(layers, classes):
    """The layer list with the classifier's output width filled in."""
    return [dict(l, out=classes) if l.get("out", 0) is None else dict(l) for l in layers]


def _parameter_shapes(layers, in_channels, in_hw):
    """Per layer, the shapes (weight, bias) of its parameters, or None for a layer without any.

    Conv weights are HWIO, dense weights [in, out] with the input flattened in C, H, W order (the
    order the Swift engine uses), so no reordering is needed at export.
    """
    shapes = []
    c, h, w = in_channels, in_hw[0], in_hw[1]
    for layer in layers:
        op = layer["op"]
        if op == "conv":
            k, out = layer["kernel"], layer["out"]
            shapes.append(((k, k, c, out), (out,)))
            c = out
            if h is not None:
                h = (h + 2 * layer["pad"] - k) // layer["stride"] + 1
                w = (w + 2 * layer["pad"] - k) // layer["stride"] + 1
        elif op == "maxpool":
            shapes.append(None)
            h, w = h // layer["size"], w // layer["size"]
        elif op == "globalavgpool":
            shapes.append(None)
            h, w = 1, 1
        elif op == "dense":
            out = layer["out"]
            shapes.append(((c * (h or 1) * (w or 1), out), (out,)))
            c, h, w = out, 1, 1
        else:
            raise ValueError(f"unknown op {op}")
    return shapes


def init(layers, in_channels, in_hw, key):
    """He-initialised parameters: a list with one (weight, bias) per conv/dense layer (None elsewhere),
    laid out as _parameter_shapes says."""
    params = []
    for layer, shapes in zip(layers, _parameter_shapes(layers, in_channels, in_hw)):
        if shapes is None:
            params.append(None)
            continue
        key, sub = jax.random.split(key)
        weight_shape, bias_shape = shapes
        fan_in = int(np.prod(weight_shape[:-1]))
        gain = 1.0 if layer["op"] == "dense" and layer["activation"] != "relu" else 2.0
        weight = jax.random.normal(sub, weight_shape) * np.sqrt(gain / fan_in)
        params.append((weight, jnp.zeros(bias_shape)))
    return params


def _activate(x, activation):
    if activation == "relu":
        return jax.nn.relu(x)
    if activation == "sigmoid":
        return jax.nn.sigmoid(x)
    return x


def apply(layers, params, x):
    """Forward pass on a batch x of shape [N, H, W, C] (inputs already normalised)."""
    for layer, p in zip(layers, params):
        op = layer["op"]
        if op == "conv":
            weight, bias = p
            pad = layer["pad"]
            x = jax.lax.conv_general_dilated(
                x, weight, (layer["stride"],) * 2, [(pad, pad), (pad, pad)],
                dimension_numbers=("NHWC", "HWIO", "NHWC")) + bias
            x = _activate(x, layer["activation"])
        elif op == "maxpool":
            s = layer["size"]
            n, h, w, c = x.shape
            x = x[:, : h // s * s, : w // s * s, :].reshape(n, h // s, s, w // s, s, c).max(axis=(2, 4))
        elif op == "dense":
            weight, bias = p
            if x.ndim == 4:
                x = jnp.transpose(x, (0, 3, 1, 2)).reshape(x.shape[0], -1)  # C, H, W order
            x = _activate(x @ weight + bias, layer["activation"])
    return x


def export(path, name, layers, params, in_channels, in_hw, normalize, classes=None, meta=None):
    """Write the network as an `.atlnn` file (docs/care-model.md describes the format)."""
    import json

    header = {
        "name": name,
        "input": {"channels": in_channels, "height": in_hw[0], "width": in_hw[1]},
        "normalize": {"mean": normalize[0], "std": normalize[1]},
        "layers": layers,
        "meta": meta or {},
    }
    if classes:
        header["classes"] = classes
    blobs = []
    for layer, p in zip(layers, params):
        if p is None:
            continue
        weight, bias = (np.asarray(t, dtype=np.float32) for t in p)
        if layer["op"] == "conv":
            weight = np.transpose(weight, (3, 2, 0, 1))  # HWIO -> O I H W
        else:
            weight = weight.T  # [in, out] -> [out][in]
        blobs += [np.ascontiguousarray(weight), bias]
    with open(path, "wb") as f:
        f.write(b"atelier-network 1\n")
        f.write(json.dumps(header, separators=(",", ":")).encode() + b"\n")
        for blob in blobs:
            f.write(blob.astype("<f4").tobytes())


def load(path):
    """(header, params) of an `.atlnn` file, the params laid out as init lays them out: what export
    wrote, read back (so training can go on from a shipped network)."""
    import json

    with open(path, "rb") as f:
        if f.readline() != b"atelier-network 1\n":
            raise ValueError(f"{path}: not an atelier-network 1 file")
        header = json.loads(f.readline())
        numbers = np.frombuffer(f.read(), dtype="<f4")
    params, at = [], 0

    def take(shape):
        nonlocal at
        size = int(np.prod(shape))
        if at + size > len(numbers):
            raise ValueError(f"{path}: shorter than its layers")
        at += size
        return numbers[at - size:at].reshape(shape)

    shapes = _parameter_shapes(header["layers"], header["input"]["channels"],
                               (header["input"]["height"], header["input"]["width"]))
    for layer, shape in zip(header["layers"], shapes):
        if shape is None:
            params.append(None)
            continue
        weight_shape, bias_shape = shape
        if layer["op"] == "conv":
            k, _, c, out = weight_shape
            weight = np.transpose(take((out, c, k, k)), (2, 3, 1, 0))  # O I H W -> HWIO
        else:
            fan_in, out = weight_shape
            weight = take((out, fan_in)).T  # [out][in] -> [in, out]
        params.append((jnp.asarray(weight), jnp.asarray(take(bias_shape))))
    if at != len(numbers):
        raise ValueError(f"{path}: {len(numbers) - at} numbers after its last layer")
    return header, params
