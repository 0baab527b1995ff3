"""keras-hub 0.32.0 keras_hub.metrics.Bleu (TensorFlow backend): calling conventions only.

Bleu() is a Keras metric: update_state(y_true, y_pred) with y_true the reference strings of each
prediction and y_pred the prediction strings; result() is a float32 scalar. It tokenizes with
its own TF-regex copy of sacrebleu's 13a. References of uneven count are given as a
tf.RaggedTensor (a plain ragged list can't become a dense tensor). A fresh metric per corpus.
Input text; any number of references; corpus level.
"""

from __future__ import annotations

import os

os.environ.setdefault("KERAS_BACKEND", "tensorflow")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import keras_hub
import tensorflow as tf

from conformance.zoo.adapters._calls import capabilities


class Adapter:
    capabilities = capabilities("keras-hub 0.32.0 metrics.Bleu", "text", ["corpus"])

    def corpus(self, hypotheses: list[str], references: list[list[str]]) -> float:
        metric = keras_hub.metrics.Bleu()
        metric.update_state(
            tf.ragged.constant([list(r) for r in references], dtype=tf.string),
            tf.constant(list(hypotheses), dtype=tf.string),
        )
        return float(metric.result())


ADAPTER = Adapter()
