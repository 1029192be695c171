"""The data catalogue: named data sets (`datasets`), file readers (`readers`), the paper's registry and the data
home (`registry`, `registry.json`), downloads (`download`), example files (`examples`), the `data` command
(`data_command`) and the file sources read out of core (`sources`: `.npy` memory maps, Zarr, Parquet), which
implement the data-source protocol the engines draw minibatches through (`explorer.sources`, beside the numerics;
no engine imports this package).

Importing this package imports none of its modules.
"""
