#!/usr/bin/env node
// bleu-score 1.0.4 (npm) served over the bleu-conform protocol (spec CONF-PROTOCOL): calling conventions
// only. Run with NODE_PATH at the zoo environment that holds bleu-score (reference-bleu zoo run does).
// bleu(reference, candidate, maxN) scores ONE candidate string against ONE reference string
// (js/bleu.js:4); the package has no corpus entry point. Input text; one reference; sentence level.
"use strict";
const readline = require("readline");
const { bleu } = require("bleu-score");

function send(obj) {
  // NaN and infinities written as JSON's common extension (the protocol accepts them).
  let line = JSON.stringify(obj, (k, v) => (typeof v === "number" && !Number.isFinite(v) ? `__${v}__` : v));
  line = line.replace(/"__(NaN|Infinity|-Infinity)__"/g, "$1");
  process.stdout.write(line + "\n");
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on("line", (line) => {
  const req = JSON.parse(line);
  if (req.type === "hello") {
    send({ type: "capabilities", protocol: "bleu-conform", version: 2, name: "bleu-score 1.0.4 (npm)",
           input: "text", levels: ["sentence"], statistics: false, scale: "unit", references: "one",
           versions: { node: process.version, "bleu-score": require("bleu-score/package.json").version } });
  } else if (req.type === "stop") {
    process.exit(0);
  } else if (req.type === "score") {
    try {
      if (req.references[0].length !== 1) throw new Error("bleu-score takes one reference string");
      const value = bleu(req.references[0][0], req.hypotheses[0], 4);
      send({ type: "result", seq: req.seq, status: "ok", score: typeof value === "number" ? value : String(value) });
    } catch (e) {
      send({ type: "result", seq: req.seq, status: "error", error: String(e).slice(0, 400) });
    }
  }
});
