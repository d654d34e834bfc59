# Compresses an image with imgapi, writing the result beside it; retries while the server is busy.
# Usage: IMGAPI_URL=http://localhost:3000 python3 compress.py photo.jpg   (needs requests)
import os
import random
import re
import sys
import time
from pathlib import Path

import requests

IMGAPI_URL = os.environ.get("IMGAPI_URL", "http://localhost:3000")
RETRYABLE = {429, 503}  # RATE_LIMITED and OVERLOADED: the same request may succeed later
ATTEMPTS = 4


class ImgapiError(Exception):
    """An application/problem+json answer: a stable code and a detail saying what went wrong."""

    def __init__(self, response):
        try:
            problem = response.json()
        except ValueError:  # not from imgapi, e.g. a proxy's HTML page
            problem = {}
        self.code = problem.get("code", str(response.status_code))
        self.detail = problem.get("detail", response.reason)
        super().__init__(f"{self.code}: {self.detail}")


def compress(path, **options):
    """Posts the image with options such as format="webp", quality=75; returns the output path."""
    path = Path(path)
    for attempt in range(ATTEMPTS):
        with path.open("rb") as image:
            response = requests.post(
                f"{IMGAPI_URL}/api/compress",
                files={"file": (path.name, image)},
                data=options,
                timeout=60,
            )
        if response.status_code not in RETRYABLE or attempt == ATTEMPTS - 1:
            break
        # Retry-After is in seconds; without it, back off exponentially with full jitter.
        retry_after = response.headers.get("Retry-After", "")
        delay = int(retry_after) if retry_after.isdigit() else random.uniform(0, 0.5 * 2**attempt)
        time.sleep(delay)

    if not response.ok:
        raise ImgapiError(response)
    # Content-Disposition: inline; filename="photo.webp" carries the extension of the result.
    name = re.search(r'filename="([^"]*)"', response.headers["Content-Disposition"]).group(1)
    output = path.with_suffix(Path(name).suffix)
    if output == path:  # same format as the input: never overwrite the original
        output = path.with_name(f"{path.stem}.min{path.suffix}")
    output.write_bytes(response.content)
    print(
        f"{path} -> {output}: {response.headers['X-Original-Size']} -> "
        f"{response.headers['X-Compressed-Size']} bytes ({response.headers['X-Result']})"
    )
    return output


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python3 compress.py <image>")
    try:
        compress(sys.argv[1], format="webp", quality=75)
    except ImgapiError as error:
        sys.exit(str(error))
