#!/usr/bin/env python3
"""Makes the corpora of scripts/bench-validate.sh from the committed valid fixture.

  bench-corpus.py OUT --count 1000 --large-prompts 100000

OUT/docs/ps-NNNN.json  COUNT documents of about 35 KB (the fixture's topics, prompts
                       repeated with per-document wording so no two files are equal)
OUT/large/large.json   one document with LARGE_PROMPTS prompts (about 64 MB at 100,000)

Every document stays valid: prompts keep their topics, priority lists keep naming
prompts that exist. Deterministic: the same arguments give the same bytes.
"""
import argparse
import copy
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "..", "fixtures", "valid", "saas-full.json")


def grow(base, prompts, tag):
    doc = copy.deepcopy(base)
    originals = base["prompts"]
    out = []
    for i in range(prompts):
        prompt = dict(originals[i % len(originals)])
        if i >= len(originals):
            # new wording per copy keeps every prompt text unique
            prompt["prompt"] = f"{prompt['prompt'].rstrip('?')} ({tag} variant {i})?"
        out.append(prompt)
    doc["prompts"] = out
    doc["client_summary"]["brand_name"] = f"{base['client_summary']['brand_name']} {tag}"
    return doc


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--prompts-per-doc", type=int, default=60)
    parser.add_argument("--large-prompts", type=int, default=100000)
    args = parser.parse_args()
    with open(FIXTURE, encoding="utf-8") as f:
        base = json.load(f)
    os.makedirs(os.path.join(args.out, "docs"), exist_ok=True)
    os.makedirs(os.path.join(args.out, "large"), exist_ok=True)
    for n in range(args.count):
        doc = grow(base, args.prompts_per_doc, f"doc{n:04d}")
        with open(os.path.join(args.out, "docs", f"ps-{n:04d}.json"), "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False, indent=2)
    if args.large_prompts:
        doc = grow(base, args.large_prompts, "large")
        with open(os.path.join(args.out, "large", "large.json"), "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False, indent=2)


if __name__ == "__main__":
    main()
