"""NumPy .npy files and sift artifacts for lit tests, in plain python (the
test machines have no numpy).

  npy.py write OUT.npy DTYPE SHAPE VALUE...  DTYPE <f2 <f4 <f8 <i4 <i8, or
                                             <V2 (bf16, rounded to nearest
                                             even from the f32); SHAPE
                                             "1x4x4" ("" for a scalar)
  npy.py random|specials OUT DTYPE SHAPE SEED  eighths in [-400, 400)
                                             (specials: one in eight +-inf,
                                             NaN or huge), seeded
  npy.py rows FILE.npy                       "DTYPE SHAPE", then one line per
                                             row of the last dimension
  npy.py sections FILE.siftart               one line per section (format in
                                             runtime/Artifact.h): meta as
                                             "meta KEY=VALUE" lines, exe/I.meta
                                             as its first line, .npy sections
                                             as "NAME DTYPE SHAPE: VALUES"
  npy.py roundtrip CASES OUT                 for every case folder in CASES
                                             (harness --save-cases): harness
                                             compile its program.mlir with its
                                             inputs to OUT/<folder>.siftart and
                                             compare the expected outputs the
                                             artifact carries with the case's,
                                             byte for byte; prints one line per
                                             case and a total
"""
import glob
import os
import struct
import subprocess
import sys

CODES = {"<f2": "e", "<f4": "f", "<f8": "d", "<i4": "i", "<i8": "q"}


def float_to_bf16(value):
    """The bf16 bits of `value` (as f32), rounded to nearest even."""
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    if (bits & 0x7f800000) == 0x7f800000 and bits & 0x7fffff:
        return (bits >> 16) | 0x40  # NaN: keep it a NaN
    return (bits + 0x7fff + ((bits >> 16) & 1)) >> 16


def encode(dtype, dims, values):
    shape = ", ".join(str(d) for d in dims) + ("," if len(dims) == 1 else "")
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        dtype, shape)
    # Magic (6), version (2) and length (2), then the header padded with
    # spaces and a line break to a multiple of 64 bytes.
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    if dtype == "<V2":
        data = b"".join(struct.pack("<H", float_to_bf16(float(v)))
                        for v in values)
    else:
        code = CODES[dtype]
        cast = float if code in "efd" else int
        data = struct.pack("<%d%s" % (len(values), code),
                           *[cast(v) for v in values])
    return (b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) +
            header.encode("latin1") + data)


def decode(raw):
    """(dtype, dims, values) of .npy bytes (format 1.0)."""
    length = struct.unpack("<H", raw[8:10])[0]
    header = raw[10:10 + length].decode("latin1")
    dtype = header.split("'descr': '")[1].split("'")[0]
    inside = header.split("'shape': (")[1].split(")")[0]
    dims = [int(d) for d in inside.split(",") if d.strip()]
    count = 1
    for d in dims:
        count *= d
    if dtype in ("<V2", "|V2"):
        bits = struct.unpack("<%dH" % count, raw[10 + length:])
        return dtype, dims, tuple(
            struct.unpack("<f", struct.pack("<I", b << 16))[0] for b in bits)
    values = struct.unpack("<%d%s" % (count, CODES[dtype]),
                           raw[10 + length:])
    return dtype, dims, values


def write(path, dtype, shape, values):
    dims = [int(d) for d in shape.split("x")] if shape else []
    with open(path, "wb") as f:
        f.write(encode(dtype, dims, values))


def rows(path):
    dtype, dims, values = decode(open(path, "rb").read())
    print("%s %s" % (dtype, "x".join(str(d) for d in dims)))
    width = dims[-1] if len(dims) > 1 else max(len(values), 1)
    for i in range(0, len(values), width):
        print(" ".join(str(v) for v in values[i:i + width]))


def read_sections(path):
    """The sections of an artifact file as (name, bytes), in file order."""
    raw = open(path, "rb").read()
    assert raw[:8] == b"SIFTART\0", "not an artifact"
    count = struct.unpack("<I", raw[12:16])[0]
    result = []
    for i in range(count):
        entry = raw[24 + 64 * i:24 + 64 * (i + 1)]
        name = entry[:32].rstrip(b"\0").decode("ascii")
        offset, size = struct.unpack("<QQ", entry[32:48])
        result.append((name, raw[offset:offset + size]))
    return result


def data_of(raw):
    """The data bytes of .npy bytes (format 1.0)."""
    return raw[10 + struct.unpack("<H", raw[8:10])[0]:]


def roundtrip(cases, out):
    same = 0
    folders = sorted(glob.glob(os.path.join(cases, "*", "")))
    for folder in folders:
        name = os.path.basename(os.path.dirname(folder))
        inputs = sorted(glob.glob(folder + "input*.npy"),
                        key=lambda p: int(os.path.basename(p)[5:-4]))
        artifact = os.path.join(out, name + ".siftart")
        run = subprocess.run(
            ["harness", "compile", folder + "program.mlir", "--emit=artifact",
             "-o", artifact] + ["--input=" + p for p in inputs],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            universal_newlines=True)
        if run.returncode != 0 or "no reference" in run.stdout:
            print("%s: %s" % (name, run.stdout.strip()))
            continue
        carried = {n: b for n, b in read_sections(artifact)
                   if n.startswith("expected/")}
        expected = sorted(glob.glob(folder + "expected*.npy"))
        differ = [p for p in expected
                  if data_of(open(p, "rb").read()) != data_of(carried.get(
                      "expected/%s.npy" % os.path.basename(p)[8:-4],
                      b"\x93NUMPY\x01\x00\x00\x00"))]
        if len(carried) != len(expected) or differ:
            print("%s: the artifact's expected outputs differ from the "
                  "case's (%s)" % (name, ", ".join(differ) or "count"))
            continue
        same += 1
    print("roundtrip: %d of %d cases carry the case's expected outputs" %
          (same, len(folders)))


def sections(path):
    for name, body in read_sections(path):
        if name == "meta":
            for line in body.decode("utf-8").splitlines():
                print("meta " + line)
        elif name.endswith(".npy"):
            dtype, dims, values = decode(body)
            print("%s %s %s: %s" % (name, dtype, "x".join(str(d) for d in dims),
                                    " ".join(str(v) for v in values)))
        elif name.endswith(".meta"):
            print("%s %s" % (name, body.decode("utf-8").splitlines()[0]))
        else:
            print(name)


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "write":
        write(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    elif command == "random":
        # random PATH DTYPE SHAPE SEED: eighths in [-400, 400), seeded.
        import random
        generator = random.Random(int(sys.argv[5]))
        count = 1
        for d in sys.argv[4].split("x"):
            count *= int(d)
        write(sys.argv[2], sys.argv[3], sys.argv[4],
              [str(generator.randint(-3200, 3199) / 8) for _ in range(count)])
    elif command == "specials":
        # specials PATH DTYPE SHAPE SEED: like random, with one element in
        # eight one of +-inf, NaN, +-2^126 or +-3e38 (float dtypes).
        import random
        generator = random.Random(int(sys.argv[5]))
        count = 1
        for d in sys.argv[4].split("x"):
            count *= int(d)
        extremes = ["inf", "-inf", "nan", str(2.0 ** 126), str(-2.0 ** 126),
                    "3e38", "-3e38"]
        write(sys.argv[2], sys.argv[3], sys.argv[4],
              [generator.choice(extremes) if generator.random() < 0.125
               else str(generator.randint(-3200, 3199) / 8)
               for _ in range(count)])
    elif command == "rows":
        rows(sys.argv[2])
    elif command == "sections":
        sections(sys.argv[2])
    elif command == "roundtrip":
        roundtrip(sys.argv[2], sys.argv[3])
    else:
        sys.exit("npy.py: unknown command " + command)
