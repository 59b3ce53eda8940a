#!/usr/bin/env python3
"""Hand-made mutants of the money code that cargo-mutants cannot reach yet.

cargo-mutants does not mutate the bodies of `macro_rules!` definitions
(https://mutants.rs/macros.html). The ledger (`service/src/store/ledger.rs`) is plain functions
now and cargo-mutants mutates it directly; what is left here are the games' calls into it
(stakes taken, fines paid, pots settled), still written once in `store_operations!` in
`sql.rs` and expanded per backend. This script plants the mutants cargo-mutants would make
there (a condition negated or replaced by a constant, an argument replaced), one at a time, in
a copy of the tree, runs the money tests on SQLite and PostgreSQL, and says which were caught.
It goes when `sql.rs` is plain functions too.

    tools/macro-mutants.py                 # all mutants; a copy in /tmp/tabula-macro-mutants
    tools/macro-mutants.py M30 M33         # some of them
    tools/macro-mutants.py --list

It needs PostgreSQL at TABULA_TEST_POSTGRES_URL (default: the local test database), as the CI
does. The figures and what became of each missed mutant are in docs/testing.md.
"""

import os
import shutil
import subprocess
import sys
import time

SQL = "service/src/store/sql.rs"

# (id, file, what it does, the text replaced (exactly once in the file), its replacement)
MUTANTS = [
    ("M29", SQL, "start of a game: stakes never taken",
     "if new.stake > 0 {", "if new.stake < 0 {"),
    ("M30", SQL, "a game ended by a move: always refunded",
     "let payout = append.payout.cloned().unwrap_or(Payout::Refund);",
     "let payout = Payout::Refund;"),
    ("M31", SQL, "a move's fines not paid",
     "Self::pay_fines(&mut tx, game.0, append.fines, now, OPERATION).await?;",
     "Self::pay_fines(&mut tx, game.0, &[], now, OPERATION).await?;"),
    ("M32", SQL, "a game ended by a move: never settled",
     "if append.finish.is_some() {\n                    let payout",
     "if false {\n                    let payout"),
    ("M33", SQL, "a game ended otherwise (resignation, time): always refunded",
     "&ending.payout,", "&Payout::Refund,"),
    ("M34", SQL, "a game ended otherwise: never settled",
     "                Self::settle_pot(\n                    &mut tx,\n                    game.0,",
     "                if false { Self::settle_pot(\n                    &mut tx,\n                    game.0,"),
]
# Further replacements a mutant needs in the same file (each text exactly once): M34's closing
# brace, where the call it wraps ends.
ALSO = {"M34": [("                .await?;\n                let announced = match announce {",
           "                .await?; }\n                let announced = match announce {")]}

TESTS = ["economy", "ledger_properties", "store_conformance"]


def run(cmd, cwd, env, log):
    with open(log, "w") as out:
        return subprocess.run(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT).returncode


def main():
    args = sys.argv[1:]
    if "--list" in args:
        for mid, path, what, _, _ in MUTANTS:
            print(f"{mid}  {path}  {what}")
        return 0
    chosen = [m for m in MUTANTS if not args or m[0] in args]
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    copy = os.environ.get("TABULA_MUTANTS_COPY", "/tmp/tabula-macro-mutants")
    os.makedirs(copy, exist_ok=True)
    subprocess.run(["rsync", "-a", "--delete", "--exclude", "target", "--exclude", ".git",
                    src + "/", copy + "/tree/"], check=True)
    tree = copy + "/tree"
    # rsync keeps the source's (older) modification times; a file restored after a mutant of an
    # earlier run would then look unchanged to cargo, which would keep the mutant's build.
    for path in {m[1] for m in MUTANTS}:
        os.utime(os.path.join(tree, path))
    env = dict(os.environ)
    env.setdefault("TABULA_TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/test")
    env["CARGO_TARGET_DIR"] = copy + "/target"
    # The service's tests are one binary (`suite`); its modules are chosen by path.
    cmd = ["cargo", "test", "--workspace", "--test", "suite", "--", "--include-ignored"]
    cmd += [t + "::" for t in TESTS]
    start = time.time()
    if run(cmd, tree, env, copy + "/baseline.log") != 0:
        print(f"the unmutated tree fails its tests: see {copy}/baseline.log")
        return 2
    print(f"baseline passed in {time.time() - start:.0f} s", flush=True)
    results = []
    for mid, path, what, old, new in chosen:
        target = os.path.join(tree, path)
        with open(target) as f:
            original = f.read()
        count = original.count(old)
        if count != 1:
            print(f"{mid}: the text to replace occurs {count} times in {path}")
            return 2
        mutated = original.replace(old, new)
        for also_old, also_new in ALSO.get(mid, []):
            if mutated.count(also_old) != 1:
                print(f"{mid}: a further text to replace is not found once in {path}")
                return 2
            mutated = mutated.replace(also_old, also_new)
        with open(target, "w") as f:
            f.write(mutated)
        began = time.time()
        try:
            code = run(cmd, tree, env, f"{copy}/{mid}.log")
        finally:
            with open(target, "w") as f:
                f.write(original)
        with open(f"{copy}/{mid}.log") as f:
            text = f.read()
        if code == 0:
            outcome = "MISSED"
        elif "error[E" in text or "could not compile" in text:
            outcome = "unviable"
        else:
            outcome = "caught"
        results.append((mid, outcome))
        print(f"{mid} {outcome:8} {time.time() - began:4.0f} s  {what}", flush=True)
    counts = {o: sum(1 for _, r in results if r == o) for o in ("caught", "MISSED", "unviable")}
    print(f"{len(results)} mutants: {counts['caught']} caught, {counts['MISSED']} missed, "
          f"{counts['unviable']} unviable, in {(time.time() - start) / 60:.0f} min")
    return 0


if __name__ == "__main__":
    sys.exit(main())
