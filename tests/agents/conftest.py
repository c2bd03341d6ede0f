"""tests/agents/: reading agents' runs (pure functions, the frameworks' own classes as test-only
dependencies) and the assertions given a run, end to end against the loopback judge."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))  # runs.py: one run in every format
