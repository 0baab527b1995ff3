"""The runner that judges anyone's BLEU: the protocol, the channel to a target's process, the
client, the harness for Python targets, the fingerprint, the judge, the verdict against an
expected profile, the command ``reference-bleu conform`` and the pytest plugin (spec 12)."""
