"""Semantic checks of the emulator's syntax check (see semantic.py)."""
