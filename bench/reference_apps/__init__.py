"""The reference applications the benchmarks measure our stack against (bench/references.py starts
them on daphne). Importable by daphne from the repository root: nothing here imports the project."""
