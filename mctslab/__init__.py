"""mctslab: fast kernels and paper pipelines for search and learning in games and puzzles."""

__version__ = "0.1.0"
