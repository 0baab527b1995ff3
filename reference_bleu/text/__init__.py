"""Text in and out: from a line of text to BLEU's tokens, and names shown as themselves (spec chapter 11).

- :mod:`.tokenizers`: the tokenizers, case folding and splitting rules of TOK-PIPELINE (TOK-*),
  with their compiled versions where the kernel has them (NUM-KERNEL);
- :mod:`.markdown`: text shown as itself in the Markdown reports (CLI-OUTPUT, CONF-REPORT).
"""
