"""Command line: `python -m explorer bench <name> [options]`."""
from __future__ import annotations

import sys

from explorer import bench


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) < 2 or argv[0] != "bench":
        listing = "\n".join(f"  {n:12s} {d}" for n, d in sorted(bench.available().items()))
        print(f"usage: python -m explorer bench <name> [options]\n\nbenchmarks:\n{listing}", file=sys.stderr)
        return 2
    return bench.run(argv[1], argv[2:]) or 0


if __name__ == "__main__":
    sys.exit(main())
