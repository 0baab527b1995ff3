"""The test vectors: JSON files beside this module, described by ``schema.json``."""
