"""Shared by the bench scripts: results of interleaved rounds read back, and each row printed as the
median of its rounds' ratios (each Muster figure against the baseline of its own round) with their
spread. A row meets its target when that median does: one run on these machines swings by more than
some targets' margins, and the baseline swings with it."""
import json
import statistics


def rounds(work, name):
    """The JSON lines a script appended to `work/name.jsonl`, one a round."""
    with open(f"{work}/{name}.jsonl") as lines:
        return [json.loads(line) for line in lines if line.strip()]


HEADER = f"{'muster':>10} {'baseline':>10} {'ratio':>6} {'spread':>11} {'target':>7}"


def row(name, ours, base, target, width=50, unit=""):
    """Prints one row (medians of `ours` and `base`, the median ratio, its spread, the verdict) and
    returns it for the results file. `target` None: information, no verdict."""
    ratios = [o / b for o, b in zip(ours, base)]
    ratio = statistics.median(ratios)
    spread = f"{min(ratios):.2f}-{max(ratios):.2f}"
    verdict = "" if target is None else ("ok" if ratio >= target else "BELOW")
    shown = f"{target:.1f}x" if target is not None else "-"
    print(f"{name:{width}} {int(statistics.median(ours)):>10,} {int(statistics.median(base)):>10,} {ratio:>6.2f} {spread:>11} "
          f"{shown:>7} {verdict}{('  (' + unit + ')') if unit else ''}")
    return {"name": name, "muster_per_sec": ours, "raw_per_sec": base, "ratios": [round(r, 3) for r in ratios],
            "ratio": round(ratio, 3), "target": target}
