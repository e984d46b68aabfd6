#!/usr/bin/env python3
"""Writes the decoder fixtures of this folder and, for each, what Pillow decodes it to.

Every fixture <name>.png / <name>.jpg gets <name>.rgb: the bytes of
``Image.open(path).convert("RGB")`` (row-major H x W x 3), the reference the Java decoder must reproduce
because upstream SAM3 feeds ``PIL.Image.open(...).convert("RGB")`` to its processor. ``expected.txt`` lists
name, width and height of every pair. PNG files are written by the small encoder below so that every colour
type, bit depth, filter type and Adam7 interlacing is covered (Pillow cannot write most of them); JPEG files
are written by Pillow.

Run with Debian 12's python3-pil (Pillow 9.4.0, libjpeg-turbo 2.1.5, zlib 1.2.13):
    python3 make_fixtures.py
"""
import io
import os
import struct
import zlib

import numpy as np
from PIL import Image, ImageCms

HERE = os.path.dirname(os.path.abspath(__file__))
RNG = np.random.default_rng(20251129)

# Adam7 passes: (x start, y start, x step, y step)
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def pack_row(samples, depth):
    """One scanline of unsigned samples at the given bit depth, big-endian, MSB-first for sub-byte depths."""
    if depth == 16:
        return b"".join(struct.pack(">H", int(v)) for v in samples)
    if depth == 8:
        return bytes(int(v) for v in samples)
    per_byte = 8 // depth
    out = bytearray()
    for i in range(0, len(samples), per_byte):
        byte = 0
        group = list(samples[i:i + per_byte]) + [0] * (per_byte - len(samples[i:i + per_byte]))
        for v in group:
            byte = (byte << depth) | int(v)
        out.append(byte)
    return bytes(out)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filter_rows(rows, bpp):
    """Filters each scanline with filter type (row index mod 5), so every filter appears."""
    out = bytearray()
    prev = bytes(len(rows[0])) if rows else b""
    for index, row in enumerate(rows):
        ftype = index % 5
        filtered = bytearray(len(row))
        for i, x in enumerate(row):
            a = row[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            predictor = [0, a, b, (a + b) // 2, paeth(a, b, c)][ftype]
            filtered[i] = (x - predictor) & 0xFF
        out.append(ftype)
        out += filtered
        prev = row
    return bytes(out)


def write_png(name, pixels, color_type, depth, palette=None, trns=None, interlace=False):
    """pixels: H x W x channels array of unsigned samples."""
    h, w = pixels.shape[:2]
    channels = CHANNELS[color_type]
    bpp = max(1, channels * depth // 8)
    pixels = pixels.reshape(h, w, channels)

    def image_rows(sub):
        return [pack_row(sub[y].reshape(-1), depth) for y in range(sub.shape[0])]

    if interlace:
        raw = b""
        for x0, y0, dx, dy in ADAM7:
            sub = pixels[y0::dy, x0::dx]
            if sub.shape[0] and sub.shape[1]:
                raw += filter_rows(image_rows(sub), bpp)
    else:
        raw = filter_rows(image_rows(pixels), bpp)
    data = b"\x89PNG\r\n\x1a\n"
    data += chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, color_type, 0, 0, 1 if interlace else 0))
    if palette is not None:
        data += chunk(b"PLTE", bytes(np.asarray(palette, dtype=np.uint8).reshape(-1)))
    if trns is not None:
        data += chunk(b"tRNS", trns)
    compressed = zlib.compress(raw, 9)
    # split the image data over several IDAT chunks, as real encoders do
    for i in range(0, len(compressed), 50):
        data += chunk(b"IDAT", compressed[i:i + 50])
    data += chunk(b"IEND", b"")
    with open(os.path.join(HERE, name + ".png"), "wb") as f:
        f.write(data)
    return name + ".png"


def samples(h, w, channels, depth):
    top = (1 << depth) - 1
    return RNG.integers(0, top + 1, size=(h, w, channels), dtype=np.int64)


def write_expected(file_name, manifest):
    img = Image.open(os.path.join(HERE, file_name))
    rgb = img.convert("RGB")
    base = os.path.splitext(file_name)[0]
    with open(os.path.join(HERE, base + ".rgb"), "wb") as f:
        f.write(rgb.tobytes())
    manifest.append(f"{file_name} {rgb.width} {rgb.height} {img.mode}")


def rewrite_jpeg_header(data, ids=None, adobe=None):
    """Drops the JFIF (APP0) segment, optionally renumbers the three components (in SOF0 and SOS) and adds an
    Adobe (APP14) segment with the given colour transform; the entropy-coded data is kept as it is."""
    out = bytearray(data[:2])
    pos = 2
    while True:
        marker = data[pos + 1]
        length = struct.unpack(">H", data[pos + 2:pos + 4])[0]
        segment = bytearray(data[pos:pos + 2 + length])
        pos += 2 + length
        if marker == 0xE0:
            if adobe is not None:
                body = b"Adobe" + struct.pack(">HHHB", 100, 0, 0, adobe)
                out += b"\xff\xee" + struct.pack(">H", len(body) + 2) + body
            continue
        if ids is not None and marker == 0xC0:
            for k in range(3):
                segment[10 + 3 * k] = ids[k]
        if ids is not None and marker == 0xDA:
            for k in range(3):
                segment[5 + 2 * k] = ids[k]
        out += segment
        if marker == 0xDA:
            return bytes(out + data[pos:])


def main():
    manifest = []
    pngs = []
    for depth in (1, 2, 4, 8, 16):
        pngs.append(write_png(f"gray{depth}", samples(11, 13, 1, depth), 0, depth))
    gray16 = samples(9, 10, 1, 16)
    gray16[0, :5, 0] = [0, 1, 255, 256, 300]  # Pillow clamps 16-bit grey to 255 instead of scaling
    pngs.append(write_png("gray16_small_values", gray16 % 512, 0, 16))
    pngs.append(write_png("gray8_trns", samples(7, 9, 1, 8), 0, 8, trns=struct.pack(">H", 17)))
    pngs.append(write_png("graya8", samples(10, 7, 2, 8), 4, 8))
    pngs.append(write_png("graya16", samples(10, 7, 2, 16), 4, 16))
    pngs.append(write_png("rgb8", samples(9, 14, 3, 8), 2, 8))
    pngs.append(write_png("rgb16", samples(9, 14, 3, 16), 2, 16))
    pngs.append(write_png("rgb8_trns", samples(6, 5, 3, 8), 2, 8, trns=struct.pack(">HHH", 1, 2, 3)))
    pngs.append(write_png("rgba8", samples(12, 10, 4, 8), 6, 8))
    pngs.append(write_png("rgba16", samples(12, 10, 4, 16), 6, 16))
    for depth in (1, 2, 4, 8):
        entries = 1 << depth
        palette = RNG.integers(0, 256, size=(entries, 3))
        pngs.append(write_png(f"palette{depth}", samples(10, 11, 1, depth), 3, depth, palette=palette))
    palette = RNG.integers(0, 256, size=(16, 3))
    trns = bytes(RNG.integers(0, 256, size=10, dtype=np.uint8))
    pngs.append(write_png("palette4_trns", samples(8, 9, 1, 4), 3, 4, palette=palette, trns=trns))
    # indices past a short PLTE: Pillow's palette starts as a grey ramp, so index i shows as (i, i, i)
    pngs.append(write_png("palette8_short_plte", samples(6, 7, 1, 8), 3, 8, palette=[[10, 20, 30], [40, 50, 60]]))
    # Adam7: odd sizes give partial and empty passes; sub-byte and 16-bit pixels cover the packing
    pngs.append(write_png("rgb8_interlaced", samples(13, 11, 3, 8), 2, 8, interlace=True))
    pngs.append(write_png("gray2_interlaced", samples(9, 10, 1, 2), 0, 2, interlace=True))
    pngs.append(write_png("rgba16_interlaced", samples(5, 6, 4, 16), 6, 16, interlace=True))
    pngs.append(write_png("palette8_interlaced_1x1", samples(1, 1, 1, 8), 3, 8,
                          palette=RNG.integers(0, 256, size=(256, 3)), interlace=True))
    pngs.append(write_png("gray8_interlaced_2x3", samples(3, 2, 1, 8), 0, 8, interlace=True))
    for name in pngs:
        write_expected(name, manifest)

    # a smooth photo-like picture keeps JPEG artefacts realistic
    yy, xx = np.mgrid[0:37, 0:45]
    photo = np.stack([(xx * 5) % 256, (yy * 7) % 256, ((xx + yy) * 3) % 256], axis=-1).astype(np.uint8)
    photo = np.clip(photo.astype(np.int64) + RNG.integers(-20, 21, size=photo.shape), 0, 255).astype(np.uint8)
    rgb = Image.fromarray(photo, "RGB")
    jpegs = {
        "jpeg420": dict(quality=85, subsampling=2),
        "jpeg422": dict(quality=85, subsampling=1),
        "jpeg444": dict(quality=95, subsampling=0),
        "jpeg_progressive": dict(quality=80, progressive=True),
        "jpeg_restart": dict(quality=80, restart_marker_blocks=2),
    }
    for name, options in jpegs.items():
        rgb.save(os.path.join(HERE, name + ".jpg"), "JPEG", **options)
        write_expected(name + ".jpg", manifest)
    rgb.convert("L").save(os.path.join(HERE, "jpeg_gray.jpg"), "JPEG", quality=90)
    write_expected("jpeg_gray.jpg", manifest)
    # EXIF orientation 6 (rotate 90 CW on display): Image.open does not apply it, nor may we
    exif = Image.Exif()
    exif[0x0112] = 6
    rgb.save(os.path.join(HERE, "jpeg_exif_rotated.jpg"), "JPEG", quality=85, exif=exif.tobytes())
    write_expected("jpeg_exif_rotated.jpg", manifest)
    # an embedded ICC profile is carried but not applied by Pillow
    profile = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    rgb.save(os.path.join(HERE, "jpeg_icc.jpg"), "JPEG", quality=85, icc_profile=profile)
    write_expected("jpeg_icc.jpg", manifest)
    # colour interpretation without a JFIF marker follows libjpeg(-turbo): Adobe transform, else component IDs
    baseline = open(os.path.join(HERE, "jpeg444.jpg"), "rb").read()
    variants = {
        "jpeg_no_jfif_ids012": dict(ids=(0, 1, 2)),  # unknown IDs: libjpeg assumes YCbCr
        "jpeg_no_jfif_ids_rgb": dict(ids=(82, 71, 66)),  # 'R', 'G', 'B': no colour conversion
        "jpeg_adobe_transform0": dict(adobe=0),  # Adobe, transform 0: RGB
        "jpeg_adobe_transform2": dict(adobe=2),  # Adobe, unknown transform: libjpeg warns, assumes YCbCr
    }
    for name, change in variants.items():
        with open(os.path.join(HERE, name + ".jpg"), "wb") as f:
            f.write(rewrite_jpeg_header(baseline, **change))
        write_expected(name + ".jpg", manifest)

    # CMYK is refused by the decoder, so it has no expected pixels
    rgb.convert("CMYK").save(os.path.join(HERE, "jpeg_cmyk.jpg"), "JPEG", quality=85)

    with open(os.path.join(HERE, "expected.txt"), "w") as f:
        f.write("# file width height pillow-mode; <file minus extension>.rgb holds Image.open(file).convert('RGB')\n")
        f.write("\n".join(manifest) + "\n")


if __name__ == "__main__":
    main()
