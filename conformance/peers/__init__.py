"""What the project knows of other BLEU implementations: targets (the reference, nltk, sacrebleu
behind one interface), the peers' models (the reference at their profiles), the registry of
divergences, and the tokenizers compared with sacrebleu's (spec 10, 11, 13)."""
