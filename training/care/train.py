"""Train the care-symbol detector, classifier and detail networks (temperature, tumble); write them
where atl-classify loads them.

    python3 training/care/train.py            # what `make train-care` runs
    python3 training/care/train.py --quick    # a few minutes, to check the pipeline end to end

Everything is seeded: the same command on the same versions of numpy, Pillow and JAX gives the same
weights. Generated samples are cached in .build-train/ (keyed by the settings and the renderer's
source), so a second run goes straight to training.
"""

import argparse
import functools
import hashlib
import os
import sys
import time

# Sample-making workers run one per core; numpy's BLAS threads would only fight them.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import optax  # noqa: E402

import data  # noqa: E402
import model as M  # noqa: E402

NORMALIZE = (0.5, 0.25)


def cached(name, settings, make):
    """Samples from the cache, or made and stored there."""
    stamp = hashlib.sha256(repr(settings).encode())
    for module in (data.render, data, M):
        stamp.update(open(module.__file__, "rb").read())
    path = os.path.join(ROOT, ".build-train", "care", f"{name}-{stamp.hexdigest()[:16]}.npz")
    if os.path.exists(path):
        with np.load(path) as f:
            return tuple(f[f"a{i}"] for i in range(len(f.files)))
    print(f"generating {name} samples")
    t = time.time()
    arrays = make()
    print(f"  {time.time() - t:.0f} s")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    np.savez(path + ".tmp.npz", **{f"a{i}": a for i, a in enumerate(arrays)})
    os.replace(path + ".tmp.npz", path)
    return arrays


def schedule(steps, peak):
    return optax.warmup_cosine_decay_schedule(0.0, peak, min(500, steps // 10), steps, peak * 0.01)


# ---------------------------------------------------------------- classifier

def classifier_batch(crops, rng):
    """Normalised crops with a small random shift (what an imperfect box does)."""
    n, s, _ = crops.shape
    padded = np.pad(crops, ((0, 0), (2, 2), (2, 2)), mode="edge")
    out = np.empty((n, s, s), np.float32)
    for i in range(n):
        dy, dx = rng.integers(0, 5, 2)
        out[i] = data.normalize_crop(padded[i, dy:dy + s, dx:dx + s])
    return ((out - NORMALIZE[0]) / NORMALIZE[1])[..., None]


def train_classifier(crops, labels, args, classes=data.CLASSES, epochs=None, name="classifier", params=None, lr=None):
    """A network of M.CLASSIFIER_LAYERS naming each crop as one of `classes`; also its accuracy
    on the fortieth of the crops held out. With `params`, training goes on from them."""
    epochs = epochs or args.classifier_epochs
    layers = M.resolve(M.CLASSIFIER_LAYERS, len(classes))
    rng = np.random.default_rng(args.seed)
    order = rng.permutation(len(crops))
    held = max(500, len(crops) // 40)
    val, train = order[:held], order[held:]
    steps = epochs * len(train) // args.batch
    opt = optax.adamw(schedule(steps, lr or args.lr), weight_decay=1e-4)
    if params is None:
        params = M.init(layers, 1, (M.CLASSIFIER_SIZE,) * 2, jax.random.PRNGKey(args.seed))
    state = opt.init(params)

    def loss_fn(p, x, y):
        logits = M.apply(layers, p, x)
        target = optax.smooth_labels(jax.nn.one_hot(y, len(classes)), 0.05)
        return optax.softmax_cross_entropy(logits, target).mean()

    @jax.jit
    def step(p, s, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(p, x, y)
        updates, s = opt.update(grads, s, p)
        return optax.apply_updates(p, updates), s, loss

    predict = jax.jit(lambda p, x: jnp.argmax(M.apply(layers, p, x), -1))
    vx = classifier_batch(crops[val], rng)
    t, done = time.time(), 0
    for epoch in range(epochs):
        rng.shuffle(train)
        for i in range(0, len(train) - args.batch + 1, args.batch):
            idx = train[i:i + args.batch]
            params, state, loss = step(params, state, classifier_batch(crops[idx], rng), labels[idx])
            done += 1
            if done % 200 == 0:
                print(f"\r  {name} step {done}/{steps} loss {float(loss):.3f} {(time.time() - t) / done * (steps - done) / 60:.1f} min left", end="", flush=True)
        guess = np.concatenate([np.asarray(predict(params, vx[j:j + 512])) for j in range(0, len(vx), 512)])
        accuracy = float(np.mean(guess == labels[val]))
        print(f"\n  epoch {epoch + 1}: held-out accuracy {accuracy:.4f}")
    return layers, params, accuracy


# ---------------------------------------------------------------- detector

def detector_loss(out, heat, mask, reg, regmask):
    p = jax.nn.sigmoid(out[..., 0])
    p = jnp.clip(p, 1e-4, 1 - 1e-4)
    pos = (heat >= 1.0).astype(jnp.float32)
    positive = -jnp.log(p) * (1 - p) ** 2 * pos
    negative = -jnp.log(1 - p) * p ** 2 * (1 - heat) ** 4 * (1 - pos)
    count = jnp.maximum(1.0, pos.sum())
    focal = ((positive + negative) * mask).sum() / count
    regression = (jnp.abs(out[..., 1:5] - reg).sum(-1) * regmask).sum() / count
    return focal + regression


def train_detector(samples, args):
    patches, heat, mask, reg, regmask = samples
    layers = M.DETECTOR_LAYERS
    rng = np.random.default_rng(args.seed + 1)
    steps = args.detector_epochs * len(patches) // args.detector_batch
    opt = optax.adamw(schedule(steps, args.lr), weight_decay=1e-4)
    params = M.init(layers, 1, (data.PATCH, data.PATCH), jax.random.PRNGKey(args.seed + 1))
    # Start the centre score near the positives' rarity, as RetinaNet and CenterNet do.
    w, b = params[-1]
    params[-1] = (w, b.at[0].set(-4.0))
    state = opt.init(params)

    @jax.jit
    def step(p, s, x, h, m, r, rm):
        loss, grads = jax.value_and_grad(lambda q: detector_loss(M.apply(layers, q, x), h, m, r, rm))(p)
        updates, s = opt.update(grads, s, p)
        return optax.apply_updates(p, updates), s, loss

    t, done = time.time(), 0
    for epoch in range(args.detector_epochs):
        order = rng.permutation(len(patches))
        total = 0.0
        for i in range(0, len(order) - args.detector_batch + 1, args.detector_batch):
            idx = np.sort(order[i:i + args.detector_batch])
            x = ((patches[idx] - NORMALIZE[0]) / NORMALIZE[1])[..., None]
            params, state, loss = step(params, state, x, heat[idx], mask[idx], reg[idx], regmask[idx])
            total += float(loss)
            done += 1
            if done % 50 == 0:
                print(f"\r  detector step {done}/{steps} loss {float(loss):.3f} {(time.time() - t) / done * (steps - done) / 60:.1f} min left", end="", flush=True)
        print(f"\n  epoch {epoch + 1}: mean loss {total / max(1, len(order) // args.detector_batch):.4f}")
    return layers, params


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=os.path.join(ROOT, "Sources", "AtelierCareLabels", "Models"))
    parser.add_argument("--seed", type=int, default=3758)
    parser.add_argument("--classifier-samples", type=int, default=160_000)
    parser.add_argument("--classifier-epochs", type=int, default=3)
    parser.add_argument("--classifier-tune-samples", type=int, default=60_000)
    parser.add_argument("--classifier-tune-epochs", type=int, default=4,
                        help="epochs on loosely framed samples after the classifier's (default 4)")
    parser.add_argument("--classifier-from", metavar="ATLNN",
                        help="start from this classifier, trained by --classifier-samples and --classifier-epochs "
                             "before, instead of training it again (for trying --classifier-tune-epochs)")
    parser.add_argument("--temperature-samples", type=int, default=120_000)
    parser.add_argument("--temperature-epochs", type=int, default=5)
    parser.add_argument("--tumble-samples", type=int, default=60_000)
    parser.add_argument("--tumble-epochs", type=int, default=4)
    parser.add_argument("--detector-samples", type=int, default=12_000)
    parser.add_argument("--detector-epochs", type=int, default=5)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--detector-batch", type=int, default=32)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--only", choices=["classifier", "temperature", "tumble", "detector"])
    parser.add_argument("--quick", action="store_true", help="small sample counts, to check the pipeline")
    args = parser.parse_args()
    if args.quick:
        args.classifier_samples, args.classifier_epochs = 6000, 1
        args.classifier_tune_samples = 3000
        args.temperature_samples, args.temperature_epochs = 3000, 1
        args.tumble_samples, args.tumble_epochs = 3000, 1
        args.detector_samples, args.detector_epochs = 600, 1
    os.makedirs(args.out, exist_ok=True)

    if args.only in (None, "classifier"):
        if args.classifier_from:
            # The network those epochs made, read back instead of trained again (two hours saved
            # when only the tuning epochs change).
            try:
                header, params = M.load(args.classifier_from)
            except (OSError, ValueError) as error:
                sys.exit(f"{args.classifier_from}: {error.strerror}" if isinstance(error, OSError) else str(error))
            if header.get("classes") != data.CLASSES or header["layers"] != M.resolve(M.CLASSIFIER_LAYERS, len(data.CLASSES)):
                sys.exit(f"{args.classifier_from}: not a classifier of this code's classes and layers")
            if header["meta"].get("tune_epochs"):
                # The shipped classifier is tuned already; tuning it again would not be what
                # make train-care makes. Its first epochs are in git history (benchmarks/RESULTS.md).
                sys.exit(f"{args.classifier_from}: already tuned ({header['meta']['tune_epochs']} epochs); "
                         "start from a classifier before its tuning epochs")
            layers, accuracy = header["layers"], header["meta"]["held_out_accuracy"]
        else:
            crops, labels = cached("classifier", (args.seed, args.classifier_samples),
                                   lambda: data.generate(data.classifier_chunk, args.classifier_samples, args.seed))
            layers, params, accuracy = train_classifier(crops, labels, args)
        tuned = {}
        if args.classifier_tune_epochs:
            # Then epochs at a quarter of the rate on symbols framed as loosely as a user's crop of
            # one, or by a box a detector got the size wrong, and on text-only labels cut as a
            # detector cuts them (data.FRAMING["wide"]); without those labels the looser framing
            # taught it to see professional-care circles in large letters (benchmarks/RESULTS.md).
            crops, labels = cached("classifier-wide", (args.seed, args.classifier_tune_samples),
                                   lambda: data.generate(functools.partial(data.classifier_chunk, framing="wide"),
                                                         args.classifier_tune_samples, args.seed + 17))
            layers, params, accuracy = train_classifier(crops, labels, args, epochs=args.classifier_tune_epochs,
                                                        name="tune", params=params, lr=args.lr / 4)
            tuned = {"tune_samples": args.classifier_tune_samples, "tune_epochs": args.classifier_tune_epochs}
        M.export(os.path.join(args.out, "care-classifier.atlnn"), "care-classifier", layers, params, 1,
                 (M.CLASSIFIER_SIZE,) * 2, NORMALIZE, classes=data.CLASSES,
                 meta={"crop_margin": M.CROP_MARGIN, "seed": args.seed, "samples": args.classifier_samples,
                       "epochs": args.classifier_epochs, **tuned, "held_out_accuracy": round(accuracy, 4)})
    for name, seed in (("temperature", args.seed + 11), ("tumble", args.seed + 13)):
        if args.only not in (None, name):
            continue
        samples, epochs = getattr(args, f"{name}_samples"), getattr(args, f"{name}_epochs")
        crops, labels = cached(name, (args.seed, samples),
                               lambda: data.generate(functools.partial(data.detail_chunk, name), samples, seed))
        classes, codes = data.DETAILS[name]
        layers, params, accuracy = train_classifier(crops, labels, args, classes, epochs, name)
        M.export(os.path.join(args.out, f"care-{name}.atlnn"), f"care-{name}", layers, params, 1,
                 (M.CLASSIFIER_SIZE,) * 2, NORMALIZE, classes=classes,
                 meta={"crop_margin": M.CROP_MARGIN, "codes": dict(zip(classes, codes)), "seed": args.seed,
                       "samples": samples, "epochs": epochs, "held_out_accuracy": round(accuracy, 4)})
    if args.only in (None, "detector"):
        samples = cached("detector", (args.seed, args.detector_samples),
                         lambda: data.generate(data.detector_chunk, args.detector_samples, args.seed + 7, per_chunk=96))
        layers, params = train_detector(samples, args)
        M.export(os.path.join(args.out, "care-detector.atlnn"), "care-detector", layers, params, 1, (None, None),
                 NORMALIZE, meta={"stride": M.DETECTOR_STRIDE, "band": list(M.DETECTOR_BAND),
                                  "outputs": ["score", "log_width", "log_height", "dx", "dy"], "seed": args.seed,
                                  "samples": args.detector_samples, "epochs": args.detector_epochs})
    print("wrote", args.out)


if __name__ == "__main__":
    main()
