"""One adapter per zoo entry (spec CONF-ZOO): a Python module whose ``ADAPTER`` the harness serves, or a
Node.js program speaking the protocol. An adapter changes calling conventions only (argument order,
the reference layout, a number out of a result object); it never computes any part of BLEU. Each runs
in its entry's environment, where its package is installed, never in the runner's.
"""
