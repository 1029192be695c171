"""The data catalogue: named data sets (`datasets`), file readers (`readers`), the paper's registry (`registry`),
downloads (`download`), the `data` command and its example files (`data_command`) and the out-of-core file
sources (`sources`); no engine imports this package (DESIGN §1). Importing it imports none of its modules.
"""
