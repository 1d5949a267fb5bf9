"""Writes the third corpus of fixtures/jpeg: frames in the formats and
layouts cameras may send every time (12-bit, arithmetic, lossless, DNL,
RGB, Adobe CMYK and YCCK) and containers around a frame (MPO, a broken Exif
thumbnail, an ICC profile in 17 chunks, a corrupt restart marker).

Run from the repository root with a Python that has numpy, Pillow and
imagecodecs (PyPI), and libjpeg-turbo's cjpeg on PATH:

    python3 -m venv /tmp/v && /tmp/v/bin/pip install numpy pillow imagecodecs
    /tmp/v/bin/python internal/camframe/thirdcorpus/make.py

The picture is small and drawn here (a sky, a house, a lamp, a timestamp
bar), so every file stays a few kilobytes; the large frames (7000×7000,
8192×8192, 50 megapixels) are made at test time instead.
"""

import io
import os
import struct
import subprocess
import tempfile

import imagecodecs
import numpy as np
from PIL import Image

OUT = "fixtures/jpeg"
W, H = 160, 120


def scene():
    y, x = np.mgrid[0:H, 0:W]
    img = np.zeros((H, W, 3), np.uint8)
    img[..., 0] = 90 + 60 * y // H
    img[..., 1] = 140 + 50 * y // H
    img[..., 2] = 200 + 40 * y // H  # sky
    ground = y > H * 2 // 3
    img[ground] = (70, 110, 50)
    house = (x > 40) & (x < 100) & (y > 45) & (y < 90)
    img[house] = (190, 160, 120)
    roof = (y >= 25) & (y <= 45) & (abs(x - 70) < (y - 20) * 1.6)
    img[roof] = (150, 40, 40)
    door = (x > 62) & (x < 76) & (y > 65) & (y < 90)
    img[door] = (60, 40, 30)
    lamp = (x - 125) ** 2 + (y - 60) ** 2 < 36
    img[lamp] = (255, 240, 150)
    img[H - 10:, :] = (20, 20, 20)  # the timestamp bar
    rng = np.random.default_rng(35)
    noise = rng.integers(-6, 7, img.shape)
    return np.clip(img.astype(int) + noise, 0, 255).astype(np.uint8)


def segments(data):
    """The (marker, start, end) of each segment before the first scan."""
    out, i = [], 2
    while i < len(data):
        m = data[i + 1]
        n = data[i + 2] << 8 | data[i + 3]
        out.append((m, i, i + 2 + n))
        if m == 0xDA:
            break
        i += 2 + n
    return out


def drop_segment(data, marker):
    for m, s, e in segments(data):
        if m == marker:
            return data[:s] + data[e:]
    raise SystemExit(f"no segment FF {marker:02X}")


def cjpeg(rgb, *flags):
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "in.ppm")
        Image.fromarray(rgb).save(p)
        return subprocess.run(["cjpeg", *flags, p], check=True, capture_output=True).stdout


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
    print(f"{name}: {len(data)} bytes")


def main():
    rgb = scene()
    grey16 = (rgb.astype(np.uint16).sum(axis=2) * 16 // 3).astype(np.uint16)  # 12-bit luma
    write("third.twelve-bit.jpeg", imagecodecs.jpeg8_encode(grey16, level=90, bitspersample=12))
    write("third.arithmetic.jpeg", cjpeg(rgb, "-quality", "85", "-arithmetic"))
    write("third.lossless.jpeg", imagecodecs.jpeg8_encode(rgb, lossless=True))

    # DNL: the height in the frame header is 0, given after the first
    # scan's data by a DNL segment (T.81 B.2.5), as a few line-scan
    # encoders write it.
    base = cjpeg(rgb, "-quality", "85")
    sof = next(s for m, s, e in segments(base) if m == 0xC0)
    dnl = bytearray(base)
    dnl[sof + 5:sof + 7] = b"\x00\x00"
    dnl = bytes(dnl[:-2]) + b"\xff\xdc\x00\x04" + struct.pack(">H", H) + b"\xff\xd9"
    write("third.dnl.jpeg", dnl)

    with_adobe = cjpeg(rgb, "-quality", "85", "-rgb")
    write("third.rgb-adobe.jpeg", with_adobe)
    write("third.rgb-no-adobe.jpeg", drop_segment(with_adobe, 0xEE))
    write("third.rgb-progressive.jpeg", drop_segment(cjpeg(rgb, "-quality", "85", "-rgb", "-progressive"), 0xEE))

    buf = io.BytesIO()
    Image.fromarray(rgb).convert("CMYK").save(buf, "JPEG", quality=85)
    write("third.adobe-cmyk.jpeg", buf.getvalue())
    buf = io.BytesIO()
    Image.fromarray(rgb).convert("CMYK").save(buf, "JPEG", quality=85, progressive=True)
    write("third.adobe-cmyk-progressive.jpeg", buf.getvalue())
    # Stored inverted, as Adobe writes CMYK (255 is no ink).
    cmyk = 255 - np.asarray(Image.fromarray(rgb).convert("CMYK"))
    write("third.adobe-ycck.jpeg", imagecodecs.jpeg8_encode(cmyk, level=85, colorspace="CMYK", outcolorspace="YCCK"))

    # A restart marker whose code was hit by a bit error: FF D3 became
    # FF 53 in the middle of the scan.
    rst = bytearray(cjpeg(rgb, "-quality", "85", "-restart", "1"))
    at = rst.index(b"\xff\xd3")
    rst[at + 1] = 0x53
    write("third.corrupt-rst.jpeg", bytes(rst))

    # MPO (CIPA DC-007): a first JPEG with an APP2 MPF index, then a
    # second JPEG right after its EOI. Only the first is the picture.
    first = cjpeg(rgb, "-quality", "85")
    second = cjpeg(rgb[:, ::-1].copy(), "-quality", "60")
    mpf = b"MPF\x00" + b"MM\x00\x2a\x00\x00\x00\x08" + b"\x00\x00"  # an empty MP index IFD
    app2 = b"\xff\xe2" + struct.pack(">H", 2 + len(mpf)) + mpf
    write("third.mpo-two-frames.jpeg", first[:2] + app2 + first[2:] + second)

    # Exif whose thumbnail is itself a broken JPEG: cut in its scan, with
    # no EOI. It must not end the picture or be taken for it.
    thumb = cjpeg(rgb[::4, ::4].copy(), "-quality", "60")
    thumb = thumb[: len(thumb) * 2 // 3]
    tiff = b"MM\x00\x2a\x00\x00\x00\x08"
    ifd0 = b"\x00\x00" + b"\x00\x00\x00\x1a"  # no entries; IFD1 at 26
    ifd1 = b"\x00\x02" + struct.pack(">HHII", 0x0201, 4, 1, 26 + 2 + 24 + 4) + struct.pack(">HHII", 0x0202, 4, 1, len(thumb)) + b"\x00\x00\x00\x00"
    exif = b"Exif\x00\x00" + tiff + ifd0 + b"\x00" * 12 + ifd1 + thumb
    app1 = b"\xff\xe1" + struct.pack(">H", 2 + len(exif)) + exif
    write("third.exif-broken-thumbnail.jpeg", first[:2] + app1 + first[2:])

    # An ICC profile spread over 17 APP2 chunks (ICC.1 B.4 allows up to
    # 255), more than the 16 some readers expect.
    profile = bytes(range(256)) * 8
    chunks = [profile[i:i + 121] for i in range(0, len(profile), 121)]
    assert len(chunks) == 17, len(chunks)
    icc = b""
    for i, c in enumerate(chunks):
        body = b"ICC_PROFILE\x00" + bytes([i + 1, len(chunks)]) + c
        icc += b"\xff\xe2" + struct.pack(">H", 2 + len(body)) + body
    write("third.icc-17-chunks.jpeg", first[:2] + icc + first[2:])


main()
