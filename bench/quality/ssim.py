#!/usr/bin/env python3
"""SSIM of every output quality.ts made, by scikit-image, for every tool alike.

Reads a JSON list of {"id", "reference", "candidate"} (file paths) named by argv[1] and
prints {"scores": [{"id", "ssim"}], "versions": {...}} on stdout. The metric is imgapi's
definition (src/image/search/similarity.ts), computed here with other code from the decoder on:

- decode to 8-bit RGBA: dwebp for WebP, avifdec for AVIF, Pillow (libjpeg, zlib) for JPEG
  and PNG; transparency flattened on white;
- both images scaled to the reference's size capped at 1 megapixel (Pillow's Lanczos, a=3,
  stretched to fill), then BT.601 luma round(0.299 R + 0.587 G + 0.114 B);
- skimage's structural_similarity with the parameters of Wang et al. (Gaussian sigma 1.5,
  data_range 255, population covariance).

Needs Debian's python3-skimage and python3-pil (run it with /usr/bin/python3 when another
python3 comes first on PATH), webp (dwebp) and libavif-bin (avifdec).
"""
import json
import math
import os
import subprocess
import sys
import tempfile
from multiprocessing import Pool

import numpy as np
import PIL
import skimage
from PIL import Image
from skimage.metrics import structural_similarity

MAX_PIXELS = 1_000_000
# The SSIM window: smaller images are enlarged to it, as imgapi does.
WINDOW = 11
PARAMETERS = dict(gaussian_weights=True, sigma=1.5, use_sample_covariance=False, data_range=255)


def read_pam(data):
    """dwebp -pam output: a text header up to ENDHDR, then RGBA samples row by row."""
    end = data.index(b"ENDHDR\n") + len(b"ENDHDR\n")
    fields = dict(line.split(b" ", 1) for line in data[:end].split(b"\n")[1:-2])
    width, height, depth = int(fields[b"WIDTH"]), int(fields[b"HEIGHT"]), int(fields[b"DEPTH"])
    samples = np.frombuffer(data, dtype=np.uint8, offset=end).reshape(height, width, depth)
    return Image.fromarray(samples, "RGBA" if depth == 4 else "RGB")


def decode(path):
    """The file as an RGBA image, decoded by a decoder that is not libvips."""
    if path.endswith(".webp"):
        pam = subprocess.run(["dwebp", "-quiet", "-pam", path, "-o", "-"], check=True, capture_output=True)
        return read_pam(pam.stdout).convert("RGBA")
    if path.endswith(".avif"):
        with tempfile.TemporaryDirectory() as folder:
            png = os.path.join(folder, "decoded.png")
            subprocess.run(
                ["avifdec", "--depth", "8", "--png-compress", "0", path, png], check=True, capture_output=True
            )
            with Image.open(png) as image:
                return image.convert("RGBA")
    with Image.open(path) as image:
        image.load()
        return image.convert("RGBA")


def comparison_size(width, height):
    scale = min(1.0, math.sqrt(MAX_PIXELS / (width * height)))
    return max(WINDOW, math.floor(width * scale)), max(WINDOW, math.floor(height * scale))


def luma_plane(path, size=None):
    rgba = decode(path)
    white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
    rgb = Image.alpha_composite(white, rgba).convert("RGB")
    size = size or comparison_size(*rgb.size)
    if rgb.size != size:
        rgb = rgb.resize(size, Image.LANCZOS)
    pixels = np.asarray(rgb, dtype=np.float64)
    # Half away from zero, as JavaScript's Math.round does for these non-negative values.
    luma = np.floor(pixels @ np.array([0.299, 0.587, 0.114]) + 0.5)
    return luma.clip(0, 255).astype(np.uint8), size


def score_group(group):
    """Pairs sharing a reference: its plane is made once."""
    reference, size = luma_plane(group[0]["reference"])
    scores = []
    for pair in group:
        try:
            candidate, _ = luma_plane(pair["candidate"], size)
            ssim = float(structural_similarity(reference, candidate, **PARAMETERS))
            scores.append({"id": pair["id"], "ssim": ssim})
        except (OSError, ValueError, subprocess.CalledProcessError) as error:
            scores.append({"id": pair["id"], "error": str(error)[:300]})
    return scores


def main():
    with open(sys.argv[1]) as file:
        pairs = json.load(file)
    groups = {}
    for pair in pairs:
        groups.setdefault(pair["reference"], []).append(pair)
    # Largest groups first, so the two workers finish together.
    ordered = sorted(groups.values(), key=len, reverse=True)
    with Pool(os.cpu_count() or 1) as pool:
        scores = [score for group in pool.imap_unordered(score_group, ordered) for score in group]
    versions = {"python": sys.version.split()[0], "skimage": skimage.__version__, "pillow": PIL.__version__}
    json.dump({"scores": scores, "versions": versions}, sys.stdout)


if __name__ == "__main__":
    main()
