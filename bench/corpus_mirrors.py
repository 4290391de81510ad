"""The corpus's sources: four public repositories of MiniZinc models, read from local git
mirrors at fixed commits (nothing is fetched from the network, nothing is copied into this
repository), and the candidate (model, data) pairs they hold.

A mirror is a git directory (bare, or a clone's `.git`) at `MIRRORS/OWNER+NAME/repo`; to
make one elsewhere: `git clone https://github.com/OWNER/NAME MIRRORS/OWNER+NAME/repo` (the
commit below must be in it). Files are read with `git show COMMIT:PATH` and written, with
the local files they include, into a cache folder for `minizinc` to read.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

MIT = "MIT"


@dataclass(frozen=True)
class Collection:
    """One repository at one commit."""

    key: str  # short name used in entry names
    repo: str  # OWNER/NAME on GitHub
    commit: str
    licence: str  # for the whole repository; mzn-challenge: per problem folder
    folder: str = ""  # the part of the repository read ("" = all of it)

    @property
    def url(self) -> str:
        return f"https://github.com/{self.repo}"


COLLECTIONS = {
    c.key: c for c in (
        Collection("mzb", "MiniZinc/minizinc-benchmarks",
                   "26bcd0a78433025f7b6896a6fa8caf128795760b",
                   "MIT (LICENSE: Copyright (c) 2016 MiniZinc (individual authors))"),
        Collection("mze", "MiniZinc/minizinc-examples",
                   "4eba8c7a0cba91665389e24698139288d9a90fcb",
                   "MIT (LICENSE: Copyright (c) 2015 MiniZinc)"),
        Collection("hakank", "hakank/hakank", "ca4a0af7513f4460fef02c8296741ca11b27aec0",
                   "MIT (LICENSE: Copyright (c) 2019 Hakan Kjellerstrand)", "minizinc"),
        # no licence for the repository: README.md says a LICENSE file is in each problem
        # folder whose licence is known (MIT for the challenges since 2017), others may be
        # under another licence or none; only folders with a LICENSE are read
        Collection("mznc", "MiniZinc/mzn-challenge", "27eb2682ff70b8b499c3386df14e21ebb70d883c",
                   "per problem folder"),
    )
}


class Mirror:
    """A collection's git mirror on this machine."""

    def __init__(self, collection: Collection, mirrors: Path) -> None:
        self.collection = collection
        base = mirrors / collection.repo.replace("/", "+") / "repo"
        self.git_dir = base / ".git" if (base / ".git").is_dir() else base
        self._files: list[str] | None = None
        self._sizes: dict[str, int] = {}

    def available(self) -> str | None:
        """None if the mirror holds the commit, else why not."""
        if not self.git_dir.is_dir():
            return f"no git directory at {self.git_dir}"
        r = self._git("cat-file", "-t", self.collection.commit, check=False)
        return None if r.strip() == "commit" else \
            f"{self.git_dir} lacks commit {self.collection.commit}"

    def _git(self, *args: str, check: bool = True) -> str:
        r = subprocess.run(["git", "--git-dir", str(self.git_dir), *args],
                           capture_output=True, text=True, check=False)
        if check and r.returncode != 0:
            raise RuntimeError(f"git {' '.join(args)}: {r.stderr.strip()}")
        return r.stdout

    def files(self) -> list[str]:
        """Every file path of the commit (under the collection's folder)."""
        if self._files is None:
            where = [self.collection.folder] if self.collection.folder else []
            out = self._git("ls-tree", "-r", "-l", self.collection.commit, *where)
            self._files = []
            for line in out.splitlines():
                meta, path = line.split("\t", 1)
                size = meta.split()[3]
                self._files.append(path)
                self._sizes[path] = int(size) if size.isdigit() else 0
        return self._files

    def size(self, path: str) -> int:
        self.files()
        return self._sizes.get(path, 0)

    def show(self, path: str) -> bytes:
        """A file's bytes at the commit (some are not UTF-8)."""
        r = subprocess.run(["git", "--git-dir", str(self.git_dir), "show",
                            f"{self.collection.commit}:{path}"], capture_output=True,
                           check=False)
        if r.returncode != 0:
            raise RuntimeError(f"git show {path}: {r.stderr.decode(errors='replace').strip()}")
        return r.stdout

    def extract(self, paths: list[str], cache: Path) -> list[Path]:
        """Write the files (and the local files they include, transitively) under
        CACHE/KEY/COMMIT/..., keeping the repository's layout; the local paths of PATHS."""
        root = cache / self.collection.key / self.collection.commit[:12]
        known = set(self.files())
        todo, seen = list(paths), set()
        while todo:  # a work list, not recursion: include chains can be long
            path = todo.pop()
            if path in seen:
                continue
            seen.add(path)
            target = root / path
            if not target.exists():
                data = self.show(path)
                target.parent.mkdir(parents=True, exist_ok=True)
                part = target.with_name(target.name + ".part")
                part.write_bytes(data)
                part.replace(target)  # whole or not at all (two threads may write it)
            text = target.read_text(errors="replace")
            for name in re.findall(r'^\s*include\s+"([^"]+)"', text, re.M):
                local = str(PurePosixPath(path).parent / name)
                if local in known:
                    todo.append(local)
        return [root / p for p in paths]


@dataclass
class Candidate:
    """A (model, data) pair to screen; data None: the model holds its data."""

    collection: str
    family: str
    model: str
    data: str | None
    licence: str
    size: int  # bytes of model + data: the order in which a family's pairs are tried
    group: str = ""  # the name's middle part when not the family (mzn-challenge: YEAR/name)
    label: str = ""  # the data's part of the name when its stem alone is ambiguous

    @property
    def name(self) -> str:
        stem = PurePosixPath(self.model).stem
        if self.data:
            stem += "+" + (self.label or PurePosixPath(self.data).stem)
        return f"{self.collection}/{self.group or self.family}/{stem}"


def family_key(stem: str) -> str:
    """hakank's variants of one problem share a key: `queens3`, `queens_viz` -> `queens`
    (the name up to its first digit or `_`-separated suffix of a few known kinds)."""
    s = stem.lower()
    s = re.split(r"\d", s, maxsplit=1)[0]
    s = re.sub(r"(_(v|ver|version|alt|b|c|gcc|table|regular|global|viz|opt|all|"
               r"model|decomp|simple|orig|test|\d+))+$", "", s)
    return s.strip("_-") or stem.lower()


def _folder_candidates(mirror: Mirror, family: str, group: str, licence: str,
                       files: list[str]) -> list[Candidate]:
    models = [f for f in files if f.endswith(".mzn")]
    datas = [f for f in files if f.endswith((".dzn", ".json"))]
    key = mirror.collection.key
    out = []
    for m in models:
        out.append(Candidate(key, family, m, None, licence, mirror.size(m), group))
        for d in datas:
            out.append(Candidate(key, family, m, d, licence, mirror.size(m) + mirror.size(d),
                                 group))
    return out


def candidates(mirror: Mirror) -> list[Candidate]:
    """Every (model, data) pair of the collection (and every model alone), by family.
    Whether a model needs data, and which data fits which model, is found by compiling."""
    key = mirror.collection.key
    files = mirror.files()
    out: list[Candidate] = []
    if key == "hakank":
        top = [f for f in files if f.count("/") == 1]
        datas = [f for f in top if f.endswith(".dzn")]
        for m in sorted(f for f in top if f.endswith(".mzn")):
            stem = PurePosixPath(m).stem
            fam = family_key(stem)
            size = mirror.size(m)
            out.append(Candidate(key, fam, m, None, mirror.collection.licence, size))
            for d in datas:  # hakank names a model's data files after it: X.mzn, X_1.dzn
                dstem = PurePosixPath(d).stem
                if dstem == stem or re.fullmatch(re.escape(stem) + r"[_-]?\w{1,12}", dstem):
                    out.append(Candidate(key, fam, m, d, mirror.collection.licence,
                                         size + mirror.size(d)))
        return out
    by_folder: dict[str, list[str]] = {}
    for f in files:
        parts = f.split("/")
        if key == "mznc":
            if len(parts) < 3:
                continue
            by_folder.setdefault("/".join(parts[:2]), []).append(f)
        elif len(parts) >= 2:
            by_folder.setdefault(parts[0], []).append(f)
        elif f.endswith(".mzn"):  # minizinc-examples: models at the top
            by_folder.setdefault(PurePosixPath(f).stem, []).append(f)
    for folder, fs in sorted(by_folder.items()):
        licence = mirror.collection.licence
        if key == "mznc":
            lic = f"{folder}/LICENSE"
            if lic not in fs:
                continue  # licence unknown: left out
            first = mirror.show(lic).decode(errors="replace").strip().splitlines()[0]
            licence = f"MIT ({lic}: {first})"
        family = folder.split("/")[-1]
        group = folder if key == "mznc" else ""  # a problem may recur in several years
        out.extend(_folder_candidates(mirror, family, group, licence, fs))
    seen: dict[str, int] = {}
    for c in out:
        seen[c.name] = seen.get(c.name, 0) + 1
    for c in out:  # data of one stem in two sub-folders: named by their path
        if seen[c.name] > 1 and c.data:
            top = PurePosixPath(c.model).parent
            c.label = str(PurePosixPath(c.data).relative_to(top).with_suffix("")) \
                if PurePosixPath(c.data).is_relative_to(top) else c.data
    return out


def spread(items: list[Candidate], at_most: int) -> list[Candidate]:
    """At most AT_MOST of ITEMS (ordered by size), spread over the whole range of sizes
    from the smallest, so that a family of 3000 instances is sampled, not read whole."""
    items = sorted(items, key=lambda c: (c.size, c.name))
    if len(items) <= at_most:
        return items
    step = (len(items) - 1) / (at_most - 1)
    return [items[round(i * step)] for i in range(at_most)]


def stable_hash(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()[:10]
