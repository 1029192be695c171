"""Command line: `python -m explorer bench <name> [options]` and `python -m explorer data <command> [options]`."""
from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "data":
        from explorer import data_command

        return data_command.main(argv[1:])
    from explorer import bench

    if len(argv) < 2 or argv[0] != "bench":
        listing = "\n".join(f"  {n:12s} {d}" for n, d in sorted(bench.available().items()))
        print("usage: python -m explorer bench <name> [options]\n"
              "       python -m explorer data {list,fetch,examples} [options]\n\n"
              f"benchmarks:\n{listing}", file=sys.stderr)
        return 2
    return bench.run(argv[1], argv[2:]) or 0


if __name__ == "__main__":
    sys.exit(main())
