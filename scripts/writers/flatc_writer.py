"""A second, independent .pte/.ptd writer: flatc's generated Python object API
(`flatc --python --gen-object-api` on schema/program.fbs or flat_tensor.fbs) plus the
`flatbuffers` pip package's Builder, with the extended header and the
segments laid out by hand here rather than by exir.

  python flatc_writer.py FLATC SRC OUT [--segment-alignment N]
                                [--force-defaults] [--pad-tail]

It reads SRC (a .pte, or a .ptd when its identifier is FT01) with the
generated reader, unpacks it whole into the object API (ProgramT /
FlatTensorT), packs it again with the Python Builder, then appends the
segments at N-byte boundaries (default 64, where exir uses 128 for a .pte and
the .ptd's own alignment, 16 or more, for tensor data).

exir 1.5.1 itself serializes through this same generated API, so with the
defaults a program without segments comes out byte-identical to exir's; the
options are what make this a different writer:
--force-defaults  store scalar fields even when they equal the schema default
                  (bigger tables and vtables; readers must not care)
--pad-tail        pad the last segment up to N too (exir stops at its end),
                  and count that padding in segment_data_size
--via-flatc-json  build the flatbuffer with flatc's C++ builder instead
                  (flatc --json, then flatc -b), as exir before 1.0 did;
                  header and segments are still laid out here
The generated code goes to a temporary folder and is not kept.
"""

import argparse
import importlib
import json
import os
import struct
import subprocess
import sys
import tempfile

import flatbuffers

HEADER_MAGIC = b"eh00"
HEADER_LEN = 32  # magic, length, program_size, segment_base_offset, segment_data_size
PTD_MAGIC = b"FH01"
PTD_HEADER_LEN = 40  # magic, length, flatbuffer_offset, flatbuffer_size, segment_base_offset, segment_data_size
PTD_INSERT = 48  # the header padded to 16, as exir inserts it


def load_generated(flatc, schema_dir, tmp, ptd):
    names = ("flat_tensor.fbs", "scalar_type.fbs") if ptd else ("program.fbs", "scalar_type.fbs")
    schemas = [os.path.join(schema_dir, n) for n in names]
    subprocess.run([flatc, "--python", "--gen-object-api", "-o", tmp, *schemas], check=True)
    sys.path.insert(0, tmp)
    if ptd:
        mod = importlib.import_module("flat_tensor_flatbuffer.FlatTensor")
        return mod.FlatTensor, mod.FlatTensorT, b"FT01"
    mod = importlib.import_module("executorch_flatbuffer.Program")
    return mod.Program, mod.ProgramT, b"ET12"


def read_segments(data, root, ptd):
    """Each segment's bytes, from the source's extended header."""
    if ptd:
        base = struct.unpack_from("<Q", data, 32)[0]
    elif data[8:12] == HEADER_MAGIC:
        base = struct.unpack_from("<Q", data, 24)[0]
    else:
        return []
    out = []
    for i in range(root.SegmentsLength()):
        seg = root.Segments(i)
        start = base + seg.Offset()
        out.append(bytes(data[start : start + seg.Size()]))
    return out


def pad_to(n, align):
    return (n + align - 1) // align * align


def flatc_json_roundtrip(a, schema_dir, tmp, ptd, new_segments):
    """The flatbuffer as flatc's C++ builder writes it: SRC to JSON with flatc,
    the segment table replaced, and back to binary with `flatc -b`."""
    # the main schema alone (it includes scalar_type.fbs): flatc takes the
    # root type from the last schema it is given
    schemas = ["-I", schema_dir, os.path.join(schema_dir, "flat_tensor.fbs" if ptd else "program.fbs")]
    work = os.path.join(tmp, "json")
    os.makedirs(work)
    src = os.path.join(work, "src.bin")
    with open(a.src, "rb") as f, open(src, "wb") as g:
        g.write(f.read())
    # with --force-defaults the JSON must carry the default values too, or
    # flatc -b has nothing to force
    dump_flags = ["--defaults-json"] if a.force_defaults else []
    subprocess.run(
        [a.flatc, "--json", "--strict-json", "--raw-binary", *dump_flags, "-o", work, *schemas, "--", src], check=True
    )
    with open(os.path.join(work, "src.json")) as f:
        doc = json.load(f)
    if new_segments:
        doc["segments"] = [{"offset": s.offset, "size": s.size} for s in new_segments]
    with open(os.path.join(work, "prog.json"), "w") as f:
        json.dump(doc, f)
    flags = ["--force-defaults"] if a.force_defaults else []
    out = os.path.join(work, "bin")
    subprocess.run([a.flatc, "-b", *flags, "-o", out, *schemas, os.path.join(work, "prog.json")], check=True)
    (path,) = [os.path.join(out, n) for n in os.listdir(out)]
    with open(path, "rb") as f:
        return f.read()


def join_segments(segments, a):
    out = bytearray()
    for seg in segments:
        out += seg
        out += b"\0" * (pad_to(len(out), a.segment_alignment) - len(out))
    if segments and not a.pad_tail:
        del out[len(out) - (pad_to(len(segments[-1]), a.segment_alignment) - len(segments[-1])) :]
    return bytes(out)


def write_ptd(fb, segments, a):
    """The FH01 header is mandatory and, like eh00, sits at byte 8."""
    root = struct.unpack_from("<I", fb, 0)[0] + PTD_INSERT
    base = pad_to(len(fb) + PTD_INSERT, a.segment_alignment)
    data = join_segments(segments, a)
    header = PTD_MAGIC + struct.pack("<IQQQQ", PTD_HEADER_LEN, PTD_INSERT, len(fb), base, len(data))
    header += b"\0" * (PTD_INSERT - len(header))
    head = struct.pack("<I", root) + fb[4:8] + header + fb[8:]
    return head + b"\0" * (base - len(head)) + data


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("flatc")
    ap.add_argument("src")
    ap.add_argument("out")
    ap.add_argument("--segment-alignment", type=int, default=64)
    ap.add_argument("--force-defaults", action="store_true")
    ap.add_argument("--pad-tail", action="store_true")
    ap.add_argument("--via-flatc-json", action="store_true")
    a = ap.parse_args()
    schema_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "schema")
    data = open(a.src, "rb").read()
    ptd = data[4:8] == b"FT01"
    with tempfile.TemporaryDirectory() as tmp:
        table, table_t, ident = load_generated(a.flatc, schema_dir, tmp, ptd)
        root_table = table.GetRootAs(data, 0)
        segments = read_segments(data, root_table, ptd)
        obj = table_t.InitFromObj(root_table)
        # this writer's segment layout: each segment at the next N boundary
        offset = 0
        for seg_obj, seg in zip(obj.segments or [], segments):
            seg_obj.offset = offset
            seg_obj.size = len(seg)
            offset = pad_to(offset + len(seg), a.segment_alignment)
        if a.via_flatc_json:
            fb = flatc_json_roundtrip(a, schema_dir, tmp, ptd, obj.segments or [])
        else:
            builder = flatbuffers.Builder(1024)
            builder.ForceDefaults(a.force_defaults)
            builder.Finish(obj.Pack(builder), file_identifier=ident)
            fb = bytes(builder.Output())
    if ptd:
        blob = write_ptd(fb, segments, a)
    elif not segments:
        blob = fb
    else:
        # the header goes right after the root offset and file identifier;
        # only the root offset points across it, so only it moves
        root = struct.unpack_from("<I", fb, 0)[0] + HEADER_LEN
        program_size = len(fb) + HEADER_LEN
        base = pad_to(program_size, a.segment_alignment)
        seg_bytes = bytearray()
        for seg in segments:
            seg_bytes += seg
            seg_bytes += b"\0" * (pad_to(len(seg_bytes), a.segment_alignment) - len(seg_bytes))
        used = len(seg_bytes)
        if not a.pad_tail:
            used -= pad_to(len(segments[-1]), a.segment_alignment) - len(segments[-1])
        header = HEADER_MAGIC + struct.pack("<IQQQ", HEADER_LEN, program_size, base, used)
        head = struct.pack("<I", root) + fb[4:8] + header + fb[8:]
        blob = head + b"\0" * (base - len(head)) + bytes(seg_bytes[:used])
    with open(a.out, "wb") as f:
        f.write(blob)
    print(f"wrote {a.out} ({len(blob)} bytes, {len(segments)} segments)")


if __name__ == "__main__":
    main()
