"""The corpus's selection step (`python bench/corpus.py --screen`): every candidate
(model, data) pair of the four collections is tried, family by family, from the smallest
data upwards, until the family has its entries; the kept ones make the manifest.

A candidate is kept when
- its model text has no float variable and no call of a random-number function (such a
  model is another instance at every compilation), and MiniZinc 2.6.4 compiles it for conundrum
  (`minizinc -c --solver conundrum`: conundrum's mznlib) into a FlatZinc with no `var
  float` and at least one variable;
- Gecode (`--solver gecode -G std`, which compiles it with MiniZinc's own library) answers
  it within the screening limit: a solution or unsatisfiability, an optimum proved; a
  satisfaction model is then enumerated (`-n 1001`): with at most 1000 solutions, all
  found, it is an "all solutions" entry, otherwise a "first solution" one.

Gecode's solver time (its `initTime + solveTime`) places it: under 0.05 s "easy", up to
15 s "mid" (the corpus's core), above "hard". Each family gets at most two entries, "mid"
ones first; an "easy" one only when the family has nothing else. Optimisations that Gecode
does not prove within the limit are kept (flagged `gecode_unproved`) only if conundrum
proves them within it, a few at most.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from corpus_mirrors import COLLECTIONS, Candidate, Mirror, candidates, spread
from corpus_mzn import ALL, OPTIMISE, SAT, SATISFY, UNSAT, answer, command, run, stats

EASY, MID, HARD = 0.05, 15.0, 60.0
MAX_SOLUTIONS = 1000
PER_FAMILY = 2
EASY_SHARE = 0.2
PROBES_PER_MODEL = 8
PROBES_PER_FAMILY = 14
RANDOM = re.compile(r"\b(uniform|poisson|bernoulli|binomial|normal|gamma|weibull|exponential|"
                    r"lognormal|chisquared|cauchy|fdistribution|tdistribution|"
                    r"discrete_distribution)\((?!\s*\w+\s*:)")
FLOAT_TEXT = re.compile(r"\bvar\s+(float|-?\d+\.\d+\s*\.\.)|of\s+var\s+float\b")
SEARCH = re.compile(r"\b(int|bool|set)_search\s*\(\s*(?:\[[^\]]*\]|[\w]+)\s*,\s*(\w+)\s*,"
                    r"\s*(\w+)")


def fzn_facts(text: str) -> dict:
    """Size and shape of a FlatZinc file: variables, constraints, set variables, float
    variables, the method and the search annotation of the solve item."""
    solve = re.search(r"^solve\s+(.*?)\b(satisfy|minimize|maximize)\b", text, re.M | re.S)
    ann = solve.group(1) if solve else ""
    searches = [f"{k}_search({v},{d})" for k, v, d in SEARCH.findall(ann)]
    others = sorted(set(re.findall(r"\b(seq_search|restart_\w+|warm_start\w*|"
                                   r"relax_and_reconstruct|priority_search|int_default_search|"
                                   r"bool_default_search)\b", ann)))
    return {
        "vars": len(re.findall(r"^var ", text, re.M)),
        "set_vars": len(re.findall(r"^var set of ", text, re.M)),
        "float_vars": len(re.findall(r"^(?:array \[[^\]]*\] of )?var float", text, re.M)),
        "constraints": len(re.findall(r"^constraint ", text, re.M)),
        "method": solve.group(2) if solve else None,
        "annotation": " ".join([*others, *searches]) or None,
    }


def gecode_time(s: dict, wall: float) -> float:
    """Gecode's own time (initialisation + search), from its statistics."""
    if "solveTime" in s:
        return float(s.get("initTime", 0.0)) + float(s["solveTime"])
    return max(0.0, wall - float(s.get("flatTime", 0.0)))


def band(seconds: float) -> str:
    return "easy" if seconds < EASY else "mid" if seconds <= MID else "hard"


class Screen:
    """The screening of every collection, its log kept (one JSON line per candidate) so
    that an interrupted screening resumes where it stopped."""

    def __init__(self, mirrors: Path, cache: Path, limit: float = HARD,
                 say: Callable[[str], None] = print) -> None:
        self.mirrors, self.cache, self.limit, self.say = mirrors, cache, limit, say
        self.cache.mkdir(parents=True, exist_ok=True)
        self.log_path = cache / "screen.jsonl"
        self.done: dict[str, dict] = {}
        if self.log_path.exists():
            for line in self.log_path.read_text().splitlines():
                if line.strip():
                    rec = json.loads(line)
                    self.done[rec["name"]] = rec
        self.lock = threading.Lock()

    def record(self, rec: dict) -> dict:
        with self.lock:
            self.done[rec["name"]] = rec
            with self.log_path.open("a") as f:
                f.write(json.dumps(rec, sort_keys=True) + "\n")
        tag = rec.get("band") or rec.get("reason", "")
        g = rec.get("gecode")
        self.say(f"  {rec['name']}: {rec['outcome']} {tag} {rec.get('kind') or ''} "
                 f"{g.get('time', '') if isinstance(g, dict) else g}")
        return rec

    def probe(self, mirror: Mirror, c: Candidate) -> dict:
        """Compile and run one candidate; its record (kept or rejected, and why)."""
        if c.name in self.done:
            return self.done[c.name]
        try:
            return self._probe(mirror, c)
        except (OSError, ValueError, RuntimeError) as e:
            return self.record({"name": c.name, "collection": c.collection,
                                "family": c.family, "model": c.model, "data": c.data,
                                "size": c.size, "outcome": "reject",
                                "reason": f"harness: {type(e).__name__}: {str(e)[:150]}"})

    def _probe(self, mirror: Mirror, c: Candidate) -> dict:
        rec: dict = {"name": c.name, "collection": c.collection, "family": c.family,
                     "model": c.model, "data": c.data, "licence": c.licence,
                     "commit": mirror.collection.commit, "size": c.size}
        try:
            paths = mirror.extract([c.model] + ([c.data] if c.data else []), self.cache)
        except RuntimeError as e:  # a snapshot may list a large file it does not hold
            return self.record({**rec, "outcome": "reject",
                                "reason": f"absent from the mirror: {str(e)[-120:]}"})
        text = paths[0].read_text(errors="replace")
        if FLOAT_TEXT.search(text):
            return self.record({**rec, "outcome": "reject", "reason": "float (model text)"})
        code = "\n".join(line.split("%")[0] for p in paths
                         for line in p.read_text(errors="replace").splitlines())
        if RANDOM.search(code):  # MiniZinc draws another instance at every compilation
            return self.record({**rec, "outcome": "reject",
                                "reason": "random data (" + RANDOM.search(code).group(1) + ")"})
        fzn = paths[0].with_name(paths[0].stem + (
            "+" + Path(c.data).stem if c.data else "") + ".conundrum.fzn")
        p = run(["minizinc", "-c", "--solver", "conundrum", "--output-mode", "dzn",
                 "--output-objective", *map(str, paths), "-o", str(fzn)], max(HARD, self.limit))
        if p.returncode != 0 or not fzn.exists():
            msg = (p.stderr.strip() or p.stdout.strip() or "killed").splitlines()
            why = next((m for m in msg if "rror" in m), msg[-1] if msg else "")
            return self.record({**rec, "outcome": "reject",
                                "reason": f"compile (conundrum): {why[:200]}"})
        facts = fzn_facts(fzn.read_text(errors="replace"))
        fzn.unlink()
        fzn.with_suffix(".ozn").unlink(missing_ok=True)
        rec["fzn"] = facts
        if facts["float_vars"]:
            return self.record({**rec, "outcome": "reject", "reason": "float variables"})
        if facts["vars"] == 0:
            return self.record({**rec, "outcome": "reject",
                                "reason": "no variable left after flattening"})
        kind = SATISFY if facts["method"] == "satisfy" else OPTIMISE
        p = run(command("gecode", paths, kind, self.limit), self.limit + 60)
        a, s = answer(kind, p), stats(p.stdout)
        if a.error:
            return self.record({**rec, "outcome": "reject", "reason": f"gecode: {a.error}"})
        g = {"time": round(gecode_time(s, p.wall), 4), "wall": round(p.wall, 3),
             "nodes": s.get("nodes"), "failures": s.get("failures"),
             "answer": a.value, "complete": a.complete}
        rec["gecode"] = g
        if not a.complete:
            return self.record({**rec, "outcome": "gecode-timeout", "kind": kind,
                                "band": "timeout"})
        if kind == SATISFY and a.value == SAT:
            limit = min(self.limit, 20.0)
            p = run(command("gecode", paths, SATISFY, limit, flags=("-n", "1001")), limit + 60)
            e, s = answer(ALL, p), stats(p.stdout)
            rec["enumeration"] = {"count": e.value, "complete": e.complete,
                                  "time": round(gecode_time(s, p.wall), 4),
                                  "wall": round(p.wall, 3), "nodes": s.get("nodes"),
                                  "failures": s.get("failures")}
            if e.complete and not e.error and isinstance(e.value, int) and \
                    0 < e.value <= MAX_SOLUTIONS:
                kind, g = ALL, {**rec["enumeration"], "answer": e.value}
        rec["kind"] = kind
        rec["reference"] = g["answer"] if kind != ALL else g["count"]
        return self.record({**rec, "outcome": "ok", "band": band(g["time"])})

    def family(self, mirror: Mirror, cands: list[Candidate]) -> list[dict]:
        """Probe a family's candidates, model by model, smallest data first, until it has
        its entries; a model stops at its first hard one (except in mzn-challenge, whose
        five instances a problem are all tried), or after two that do not compile."""
        by_model: dict[str, list[Candidate]] = {}
        for c in cands:
            by_model.setdefault(c.model, []).append(c)
        out: list[dict] = []
        probes = 0
        for model in sorted(by_model, key=lambda m: min(c.size for c in by_model[m])):
            alone = [c for c in by_model[model] if c.data is None]
            with_data = spread([c for c in by_model[model] if c.data], PROBES_PER_MODEL)
            failed = 0
            for c in alone + with_data:
                if probes >= PROBES_PER_FAMILY or \
                        sum(r.get("band") == "mid" for r in out) >= PER_FAMILY:
                    return out
                rec = self.probe(mirror, c)
                probes += 1
                out.append(rec)
                reason = rec.get("reason", "")
                if c.data is None and rec["outcome"] != "reject":
                    break  # the model holds its data: no pairing
                if c.data is None:
                    continue
                if reason.startswith("compile"):
                    failed += 1
                    if failed >= 2 and not any(r["model"] == model and
                                               r["outcome"] != "reject" for r in out):
                        break
                    continue
                if (rec["outcome"] == "gecode-timeout" or rec.get("band") == "hard") and \
                        c.collection != "mznc":  # challenge sizes say little of hardness
                    break
        return out

    def all(self, jobs: int, only: Callable[[str], bool] | None = None) -> list[dict]:
        """Screen every family of every collection (JOBS at a time)."""
        work = []
        for coll in COLLECTIONS.values():
            mirror = Mirror(coll, self.mirrors)
            problem = mirror.available()
            if problem:
                raise SystemExit(f"{coll.repo}: {problem} (see bench/corpus/README.md)")
            fams: dict[str, list[Candidate]] = {}
            for c in candidates(mirror):
                if only is None or only(c.name):
                    fams.setdefault(c.family, []).append(c)
            work += [(mirror, f) for _, f in sorted(fams.items())]
        records: list[dict] = []
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            for recs in pool.map(lambda w: self.family(*w), work):
                records += recs
        return records


def choose(records: list[dict]) -> list[dict]:
    """The kept entries: per family (collection + family), at most two, "mid" ones first
    (distinct models before two data of one model), else one "hard"; across collections at
    most three of one family name. Families with nothing else give their slowest "easy"
    one, but easy entries are at most EASY_SHARE of the others (the slowest first; set
    variables always welcome)."""
    by_family: dict[tuple[str, str], list[dict]] = {}
    for r in records:
        if r["outcome"] == "ok":
            by_family.setdefault((r["collection"], r["family"]), []).append(r)
    chosen, easy = [], []
    for recs in by_family.values():
        mids = sorted((r for r in recs if r["band"] == "mid"), key=lambda r: r["size"])
        picked: list[dict] = []
        for r in mids:  # distinct models first
            if len(picked) < PER_FAMILY and all(p["model"] != r["model"] for p in picked):
                picked.append(r)
        for r in mids:
            if len(picked) < PER_FAMILY and r not in picked:
                picked.append(r)
        if not picked:
            picked = [r for r in recs if r["band"] == "hard"][:1]
        if picked:
            chosen += picked
            continue
        easy += sorted((r for r in recs if r["band"] == "easy"),
                       key=lambda r: (-bool(r["fzn"]["set_vars"]), -timing(r)))[:1]
    easy.sort(key=lambda r: (-bool(r["fzn"]["set_vars"]), -timing(r)))
    chosen += easy[:max(round(EASY_SHARE * len(chosen)),
                        sum(bool(r["fzn"]["set_vars"]) for r in easy))]
    per_name: dict[str, int] = {}
    kept = []
    order = {"mzb": 0, "mznc": 1, "mze": 2, "hakank": 3}
    for r in sorted(chosen, key=lambda r: (order[r["collection"]], r["name"])):
        key = re.sub(r"[^a-z]", "", r["family"].lower())
        if per_name.get(key, 0) < 3:
            per_name[key] = per_name.get(key, 0) + 1
            kept.append(r)
    return kept


def timing(rec: dict) -> float:
    """Gecode's search time for the entry's kind (the enumeration's for all solutions)."""
    return (rec["enumeration"] if rec["kind"] == ALL else rec["gecode"])["time"]


def entry(rec: dict, flagged: str | None = None) -> dict:
    """The manifest's form of a kept record."""
    coll = COLLECTIONS[rec["collection"]]
    g = rec["gecode"] if rec["kind"] != ALL else rec["enumeration"]
    e = {
        "name": rec["name"], "collection": coll.repo, "commit": coll.commit,
        "model": rec["model"], "data": rec["data"], "licence": rec["licence"],
        "family": rec["family"], "kind": rec["kind"], "method": rec["fzn"]["method"],
        "reference": {"answer": rec["reference"], "complete": bool(g.get("complete")),
                      "gecode_time": g["time"], "nodes": g.get("nodes")},
        "annotation": rec["fzn"]["annotation"], "set_vars": rec["fzn"]["set_vars"],
        "fzn_vars": rec["fzn"]["vars"], "fzn_constraints": rec["fzn"]["constraints"],
        "band": rec["band"],
    }
    if flagged:
        e["flag"] = flagged
    return e


UNANSWERED_KEPT = 6
UNANSWERED_TRIED = 16


def unanswered(screen: Screen, records: list[dict], limit: float) -> list[dict]:
    """Candidates Gecode did not answer within the screening limit nor within LIMIT (60 s)
    that conundrum answers within LIMIT (a few, one per family, smallest first), as entries
    flagged `gecode_unproved`. The two runs are logged with the screening (resumed)."""
    mirror_of = {k: Mirror(c, screen.mirrors) for k, c in COLLECTIONS.items()}
    seen, kept, tried = set(), [], 0
    for r in sorted((r for r in records if r["outcome"] == "gecode-timeout"),
                    key=lambda r: r["size"]):
        if len(kept) >= UNANSWERED_KEPT or tried >= UNANSWERED_TRIED or \
                (r["collection"], r["family"]) in seen:
            continue
        tried += 1
        key = f"{r['name']}@unanswered"
        check = screen.done.get(key)
        if check is None:
            mirror = mirror_of[r["collection"]]
            paths = mirror.extract([r["model"]] + ([r["data"]] if r["data"] else []),
                                   screen.cache)
            p = run(command("gecode", paths, r["kind"], limit), limit + 60)
            g = answer(r["kind"], p)
            check = {"name": key, "outcome": "check", "gecode": g.value,
                     "gecode_complete": g.complete, "gecode_error": g.error}
            if not g.complete and not g.error:
                p = run(command("conundrum", paths, r["kind"], limit), limit + 60)
                a = answer(r["kind"], p)
                check.update(conundrum=a.value, conundrum_complete=a.complete,
                             conundrum_error=a.error, conundrum_wall=round(p.wall, 2))
            screen.record(check)
        if check["gecode_complete"] or check["gecode_error"]:
            continue
        seen.add((r["collection"], r["family"]))
        if not check["conundrum_complete"] or check["conundrum_error"]:
            continue
        rec = {**r, "band": "timeout", "reference": check["gecode"],
               "gecode": {**r["gecode"], "answer": check["gecode"], "time": limit}}
        e = entry(rec, "gecode_unproved")
        e["reference"]["conundrum_screen"] = check["conundrum"]
        kept.append(e)
    return kept


def sanity(entries: list[dict]) -> list[str]:
    """Problems in a manifest: duplicate names, unknown kinds, answers of the wrong type."""
    problems, names = [], set()
    for e in entries:
        if e["name"] in names:
            problems.append(f"{e['name']}: twice")
        names.add(e["name"])
        ref = e["reference"]["answer"]
        if e.get("flag") and ref is None:
            continue  # Gecode found nothing in 60 s
        if e["kind"] == ALL and not isinstance(ref, int):
            problems.append(f"{e['name']}: count {ref!r}")
        if e["kind"] == SATISFY and ref not in (SAT, UNSAT):
            problems.append(f"{e['name']}: satisfy answer {ref!r}")
    return problems
