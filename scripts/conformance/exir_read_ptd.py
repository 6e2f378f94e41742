"""Reads .ptd files with exir's own FlatTensorSerializer and prints, per file,
every key with the sha256 of its bytes and its tensor layout, as JSON lines.
Used by scripts/conformance/et-external.sh to compare with `pte info --json`."""
import hashlib, json, sys

from executorch.exir._serialize._cord import Cord
from executorch.extension.flat_tensor.serialize.serialize import FlatTensorSerializer

for path in sys.argv[1:]:
    payload = FlatTensorSerializer().deserialize(Cord(open(path, "rb").read()))
    keys = {}
    for key, entry in payload.named_data.items():
        data = bytes(payload.buffers[entry.buffer_index])
        lay = entry.tensor_layout
        keys[key] = {
            "sha256": hashlib.sha256(data).hexdigest(),
            "size": len(data),
            "layout": None if lay is None else {
                "scalar_type": int(lay.scalar_type), "sizes": list(lay.sizes), "dim_order": list(lay.dim_order)},
        }
    print(json.dumps({"file": path, "keys": keys}, sort_keys=True))
