#!/usr/bin/env python3
"""The notifications bench's figures, from the log's acknowledgements (`booking millis` per line)
and the APNs stand-in's deliveries (each "Walk confirmed" carries its booking id and when the
stand-in took it).

  capacity START ACKED DELIVERIES          prints confirmations/s from START to the last arrival
  report WORK COUNT PACED_START PACED_ACKED PACED_DELIVERIES PACED_RATE
                                           the bursts' row from WORK/bursts.jsonl (one a round), the paced p99
"""
import json
import sys


def waits(acked_file, deliveries_file):
    """Milliseconds from each confirmation's acknowledgement to its push's arrival; the last arrival."""
    acked = dict(line.split() for line in open(acked_file) if line.strip())
    arrived = {}
    for d in json.load(open(deliveries_file)):
        payload = json.loads(d["payload"])
        if payload.get("aps", {}).get("alert", {}).get("title") == "Walk confirmed" and d.get("receivedAt"):
            arrived.setdefault(payload.get("id"), d["receivedAt"])
    matched = sorted(arrived[b] - int(t) for b, t in acked.items() if b in arrived)
    if len(matched) < len(acked):
        sys.exit(f"only {len(matched)} of {len(acked)} confirmations matched a delivery")
    last = max(arrived[b] for b in acked) / 1000
    return matched, last


def percentile(sorted_ms, p):
    return sorted_ms[min(len(sorted_ms) - 1, int(len(sorted_ms) * p))] / 1000


def capacity(start, acked_file, deliveries_file):
    matched, last = waits(acked_file, deliveries_file)
    return len(matched) / (last - float(start))


if sys.argv[1] == "capacity":
    print(int(capacity(*sys.argv[2:5])))
else:
    sys.path.insert(0, "bench")
    from rounds import rounds, row, HEADER
    work, count, pstart, packed, pdeliveries, prate = sys.argv[2:8]
    bursts = rounds(work, "bursts")
    paced, _ = waits(packed, pdeliveries)
    print(f"{'pushes/s (medians; baseline: h2load)':52} {HEADER}")
    row("booking confirmed -> rules -> push -> APNs stand-in", [b["muster"] for b in bursts], [b["h2load"] for b in bursts], 0.5, 52,
        f"{count} confirmations at once, each round")
    print(f"{'  ... paced, confirmation -> provider':52} {percentile(paced, 0.99):10.2f} s p99    ({len(paced)} confirmations at "
          f"{prate}/s, 80 % of the median burst; median {percentile(paced, 0.5):.2f} s, max {paced[-1] / 1000:.2f} s; target p99 < 1 s)")
