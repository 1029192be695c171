"""Headless studies a tab drives and a script runs: the plane of a 2-D picture (`plane`), the
inducing-point study's measure (`inducing`), the race and its one verdict (`race`). Each imports numerics
and the data catalogue only, never Panel or a view."""
