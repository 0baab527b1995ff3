"""Vectors of the tools' own arithmetic and printed forms (spec chapter 16, CONF-TOOL-VECTORS):
each file one tool's answers, recorded by running it (``record.py``), read by ``loader``."""
