"""The data catalogue: named data sets (`datasets`), file readers (`readers`), the paper's registry and the data
home (`registry`, `registry.json`), downloads (`download`), example files (`examples`), the `data` command
(`data_command`) and the sources an engine draws minibatches from (`sources`: arrays in memory, memory maps).

Importing this package imports none of its modules, so `explorer.data.sources` stays as light as the engine needs.
"""
