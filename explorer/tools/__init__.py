"""Tools that serve the dashboard and drive it in headless Chromium: its benchmark (`python -m
explorer.tools.benchmark`), the load test of a class on one server (`python -m explorer.tools.loadtest`) and the
README's screenshots (`python -m explorer.tools.screenshots`).

They stand above both the dashboard and the benchmarks' helpers (`explorer.bench.common`: tables, JSON, pinned BLAS)
and import both; neither imports them, so the dashboard stays above no benchmark (DESIGN §1).
"""
