"""Command line: `xgpc-explorer` (or `python -m explorer`) with the commands `serve`, `bench` and `data`.

xgpc-explorer serve [--port 5006] [--address ADDR] [--allow-websocket-origin HOST[:PORT] …] [--num-procs N]
                    [--scheduler ADDRESS]
xgpc-explorer bench NAME [options]        (xgpc-explorer bench --help lists the benchmarks)
xgpc-explorer data {list,fetch,examples} [options]
"""

from __future__ import annotations

import argparse
import os
import sys

from explorer.console import Parser, listening_problem, whole_number

PROG = "xgpc-explorer"
CORES = os.cpu_count() or 1


def _serve(args: argparse.Namespace) -> int:
    from explorer.dask_scheduler import SchedulerError, check_scheduler, named_scheduler

    try:
        named = named_scheduler(args.scheduler)
        if named is not None:  # a bad address is refused before the dashboard's imports (seconds), not after
            address, named_by = named
            check_scheduler(address, named_by=named_by)
        from explorer.dashboard.serve import serve

        serve(
            port=args.port,
            address=args.address,
            websocket_origins=args.allow_websocket_origin,
            num_procs=args.num_procs,
            show=args.show,
            scheduler=args.scheduler,
        )
    except SchedulerError as err:  # checked at start: one line, before any page is served
        print(f"{PROG} serve: error: {err}", file=sys.stderr)
        return 2
    return 0


def _bench(options: list[str]) -> int:
    from explorer import bench

    if not options or options[0] in ("-h", "--help"):  # the usage and the benchmarks, one line each
        listing = "\n".join(f"  {name:12s} {text}" for name, text in sorted(bench.available().items()))
        print(
            f"usage: {PROG} bench NAME [options]   ({PROG} bench NAME --help for a benchmark's options)\n\n"
            f"Each benchmark prints a table and writes it, with its numbers as JSON, into ./bench-results "
            f"(--results DIR); --write-benchmarks-md also updates BENCHMARKS.md.\n\nbenchmarks:\n{listing}"
        )
        return 0 if options else 2
    return bench.run(options[0], options[1:]) or 0


def parser() -> argparse.ArgumentParser:
    top = Parser(
        prog=PROG,
        description="X-GPC Explorer: serve the dashboard, run the benchmarks, manage the data home.",
        epilog=f"In a checkout, `panel serve apps/explorer.py` serves the same app. `{PROG} COMMAND --help` for more.",
    )
    commands = top.add_subparsers(dest="command", required=True, metavar="{serve,bench,data}")

    serving = commands.add_parser(
        "serve",
        help="serve the dashboard (one Model and worker per browser session)",
        description="Serve the dashboard at http://ADDRESS:PORT/explorer.",
    )
    serving.add_argument(
        "--port", type=whole_number(0, 65535), default=5006, help="port, 0…65535 (default 5006; 0 picks a free one)"
    )
    serving.add_argument(
        "--address", default=None, help="address to listen on (default: all; use 127.0.0.1 to stay on this machine)"
    )
    serving.add_argument(
        "--allow-websocket-origin",
        action="append",
        default=None,
        metavar="HOST[:PORT]",
        help="a host the browsers reach the server as (repeat for several; needed when serving a "
        "room from another machine's address; default: localhost)",
    )
    serving.add_argument(
        "--num-procs",
        type=whole_number(0, CORES),
        default=1,
        help=f"server processes, 0…{CORES} (this machine's cores; default 1; 0 = one per core); sessions are spread "
        "over them",
    )
    serving.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="a Dask scheduler (tcp://host:8786) to run the sessions' MCMC comparisons on (default: $XGPC_SCHEDULER "
        "if set, else in the server; needs the `dask` extra); checked at start: it must answer within a few seconds",
    )
    serving.add_argument("--show", action="store_true", help="open the page in this machine's browser")
    serving.set_defaults(parser=serving)

    # bench and data hand their options on untouched (main dispatches them); listed here for the help
    commands.add_parser("bench", help="run a benchmark (list them with: bench --help)")
    commands.add_parser("data", help="the data home: list, fetch the paper's sets, write example files")
    return top


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] == "bench":
        return _bench(argv[1:])
    if argv and argv[0] == "data":
        from explorer.data import data_command

        return data_command.main(argv[1:])
    args = parser().parse_args(argv)  # serve: the one command argparse dispatches
    problem = listening_problem(args.port, args.address)
    if problem is not None:
        args.parser.error(f"argument --{problem[0]}: {problem[1]}")
    return _serve(args)


if __name__ == "__main__":
    sys.exit(main())
