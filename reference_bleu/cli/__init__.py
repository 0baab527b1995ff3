"""The ``reference-bleu`` command (spec chapter 14: CLI, CLI-*).

- :mod:`.main`: the entry point and the ``score``, ``stats``, ``explain`` and ``profiles`` commands;
- :mod:`.arguments`: every command's flags, declared apart from what the commands do;
- :mod:`.flags`: sacrebleu's flags under ``score`` (CLI-SACREBLEU-FLAGS);
- :mod:`.compare`: ``compare`` and ``identify`` (ATTR-CLI);
- :mod:`.printing`: a tool's own printed form, byte for byte (CLI-PRINTED);
- :mod:`.report`: this project's reports: text, JSON, Markdown, LaTeX (CLI-OUTPUT).

``conform`` is the conformance runner's (:mod:`conformance.runner.conform`), started from here.
"""
