"""Collection settings for the whole tree (doctests in src/, README.md and docs/)."""

import importlib.util

# paiute.batch needs the optional NumPy; without it, skip its doctests instead of failing.
collect_ignore = [] if importlib.util.find_spec("numpy") else ["src/paiute/batch.py"]
