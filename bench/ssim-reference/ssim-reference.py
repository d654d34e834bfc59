#!/usr/bin/env python3
"""Reference SSIM values for tests/image/search/ssim.test.ts, computed by scikit-image.

Reads the pairs that ssim-planes.ts (beside it) wrote to tests/fixtures/ssim/ (raw 8-bit luma
planes, row by row, sizes in pairs.json) and writes tests/image/search/ssim-reference.json with
skimage's SSIM of each pair and the SHA-256 of both planes.

Python reads the planes Bun exported instead of computing luma itself, so both sides
start from the same bytes: the comparison then tests the SSIM arithmetic alone, with no
room for a second luma formula, resize or rounding rule to differ.

Needs numpy and scikit-image (Debian: apt-get install python3-skimage, then run it with
/usr/bin/python3 if another python3 comes first on PATH). With --stdout the JSON is
printed instead of written, for comparing against the committed file.
"""
import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import scipy
import skimage
from skimage.metrics import structural_similarity

ROOT = Path(__file__).resolve().parents[2]
PLANES = ROOT / "tests" / "fixtures" / "ssim"
OUTPUT = ROOT / "tests" / "image" / "search" / "ssim-reference.json"

# The parameters of Wang et al. 2004, as skimage's documentation says to match the paper.
PARAMETERS = dict(gaussian_weights=True, sigma=1.5, use_sample_covariance=False, data_range=255)


def read_plane(name, width, height):
    data = (PLANES / name).read_bytes()
    if len(data) != width * height:
        sys.exit(f"{name}: expected {width * height} bytes ({width}x{height}), found {len(data)}")
    return np.frombuffer(data, dtype=np.uint8).reshape(height, width), hashlib.sha256(data).hexdigest()


def measure(pair):
    reference, reference_sha = read_plane(pair["reference"], pair["width"], pair["height"])
    candidate, candidate_sha = read_plane(pair["candidate"], pair["width"], pair["height"])
    # uint8 planes: skimage promotes them to float64 before filtering.
    score = structural_similarity(reference, candidate, **PARAMETERS)
    return {
        **pair,
        "referenceSha256": reference_sha,
        "candidateSha256": candidate_sha,
        "ssim": float(score),
    }


def main():
    pairs = json.loads((PLANES / "pairs.json").read_text())["pairs"]
    result = {
        "generator": {
            "python": sys.version.split()[0],
            "numpy": np.__version__,
            "scipy": scipy.__version__,
            "skimage": skimage.__version__,
        },
        "call": "structural_similarity(reference, candidate, "
        + ", ".join(f"{key}={value}" for key, value in PARAMETERS.items())
        + ")",
        "pairs": [measure(pair) for pair in pairs],
    }
    text = json.dumps(result, indent=2) + "\n"
    if "--stdout" in sys.argv[1:]:
        sys.stdout.write(text)
    else:
        OUTPUT.write_text(text)
        print(f"{len(pairs)} pairs written to {OUTPUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
