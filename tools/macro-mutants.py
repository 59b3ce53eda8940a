#!/usr/bin/env python3
"""Hand-made mutants of the money code that cargo-mutants cannot reach.

cargo-mutants does not mutate the bodies of `macro_rules!` definitions
(https://mutants.rs/macros.html), and the store's transaction code is written once in
`ledger_operations!` and `store_operations!` and expanded per backend. This script plants the
mutants cargo-mutants would make there (a condition negated or replaced by a constant, a
comparison changed, a statement's effect removed, two arguments swapped), one at a time, in a
copy of the tree, runs the money tests on SQLite and PostgreSQL, and says which were caught.

    tools/macro-mutants.py                 # all mutants; a copy in /tmp/tabula-macro-mutants
    tools/macro-mutants.py M03 M12         # some of them
    tools/macro-mutants.py --list

It needs PostgreSQL at TABULA_TEST_POSTGRES_URL (default: the local test database), as the CI
does. The figures and what became of each missed mutant are in docs/testing.md.
"""

import os
import shutil
import subprocess
import sys
import time

LEDGER = "service/src/store/ledger.rs"
SQL = "service/src/store/sql.rs"

# (id, file, what it does, the text replaced (exactly once in the file), its replacement)
MUTANTS = [
    ("M01", LEDGER, "lock_accounts: accounts locked in the given order, not sorted",
     "ids.sort_unstable();\n", "\n"),
    ("M02", LEDGER, "lock_accounts: locks nothing",
     "lock_accounts_in(tx, &ids).await.map_err(db(operation))",
     "{ let _ = (tx, ids, operation); Ok(()) }"),
    ("M03", LEDGER, "transfer: funded and unfunded debits swapped",
     "let debit = if transfer.funded {", "let debit = if !transfer.funded {"),
    ("M04", LEDGER, "transfer: every debit funded (never below zero)",
     "let debit = if transfer.funded {", "let debit = if true {"),
    ("M05", LEDGER, "transfer: no debit funded (a stake may leave a wallet below zero)",
     "let debit = if transfer.funded {", "let debit = if false {"),
    ("M06", LEDGER, "transfer: a refused debit reported as done (and the credit made)",
     "let Some(left) = left else {\n                    return Ok(None);",
     "let Some(left) = left.or(Some(0)) else {\n                    return Ok(None);"),
    ("M07", LEDGER, "CREDIT adds nothing to the receiving account",
     "SET balance = balance + $2 WHERE", "SET balance = balance + 0 * $2 WHERE"),
    ("M08", LEDGER, "transfer: the ledger row written from `to` to `from`",
     ".bind(transfer.from)\n                    .bind(transfer.to)",
     ".bind(transfer.to)\n                    .bind(transfer.from)"),
    ("M09", LEDGER, "transfer: every ledger row of kind grant",
     ".bind(transfer.kind.as_str())", ".bind(LedgerKind::Grant.as_str())"),
    ("M10", LEDGER, "open_wallet_in: the grant also when it is 0",
     "if grant > 0 {", "if grant >= 0 {"),
    ("M11", LEDGER, "open_wallet_in: no starting grant",
     "if grant > 0 {", "if grant < 0 {"),
    ("M12", LEDGER, "take_stakes: a person seated twice pays twice",
     "for user in distinct(stakers) {", "for user in stakers.iter().copied() {"),
    ("M13", LEDGER, "take_stakes: a stake that cannot be paid is not refused",
     "if taken.is_none() {", "if false {"),
    ("M14", LEDGER, "take_stakes: the refusal names a balance of 0",
     "                            .map_or(0, |(_, balance)| balance);\n"
     "                        return Err(Conflict::InsufficientFunds {\n"
     "                            user,\n"
     "                            balance,\n"
     "                            needed: stake,",
     "                            .map_or(0, |_| 0);\n"
     "                        return Err(Conflict::InsufficientFunds {\n"
     "                            user,\n"
     "                            balance,\n"
     "                            needed: stake,"),
    ("M15", LEDGER, "pay_fines: fines paid only when there are none",
     "if fines.is_empty() {", "if !fines.is_empty() {"),
    ("M16", LEDGER, "pay_fines: the payee pays the payer",
     "from: payer,\n                            to: payee,",
     "from: payee,\n                            to: payer,"),
    ("M17", LEDGER, "pay_fines: a fine never takes a wallet below zero (silently unpaid)",
     "funded: false,\n                            game: Some(game),\n"
     "                            actor: Some(fine.payer.0),",
     "funded: true,\n                            game: Some(game),\n"
     "                            actor: Some(fine.payer.0),"),
    ("M18", LEDGER, "settle_pot: settles only games already settled",
     "if marked == 0 {", "if marked != 0 {"),
    ("M19", LEDGER, "settle_pot: settles again a game already settled",
     "if marked == 0 {", "if false {"),
    ("M20", LEDGER, "settle_pot: no winners keeps the stakes in the pot",
     "Payout::Winners(winners) if winners.is_empty() => &Payout::Refund,",
     "Payout::Winners(winners) if winners.is_empty() && false => &Payout::Refund,"),
    ("M21", LEDGER, "settle_pot: a payment of 0 is attempted",
     "if amount <= 0 {", "if amount < 0 {"),
    ("M22", LEDGER, "settle_pot: refunds written as payouts",
     "let kind = ledger::settlement_kind(payout);", "let kind = LedgerKind::Payout;"),
    ("M23", LEDGER, "settle_pot: the settlement's rows name no actor",
     "actor: actor.map(|user| user.0),", "actor: None::<i64>,"),
    ("M24", LEDGER, "settle_pot: the winners share a pot taken as 0",
     "                        let (_, balance): (i64, i64) = sqlx::query_as(ledger::POT)",
     "                        let balance: i64 = 0;\n"
     "                        let (_, _balance): (i64, i64) = sqlx::query_as(ledger::POT)"),
    ("M25", LEDGER, "adjust_wallet: 0 moves money, others only open the wallet",
     "if amount == 0 {", "if amount != 0 {"),
    ("M26", LEDGER, "adjust_wallet: a grant and a deduction swapped",
     "if amount >= 0 {", "if amount < 0 {"),
    ("M27", LEDGER, "adjust_wallet: a deduction may leave the wallet below zero",
     "funded: amount < 0,", "funded: false,"),
    ("M28", LEDGER, "adjust_wallet: a deduction larger than the wallet is not refused",
     "if moved.is_none() {", "if false {"),
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
ALSO = {"M34": [("                .await?;\n                tx.commit().await.map_err(db(OPERATION))?;\n"
           "                self.existing_game(game).await",
           "                .await?; }\n                tx.commit().await.map_err(db(OPERATION))?;\n"
           "                self.existing_game(game).await")]}

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
    cmd = ["cargo", "test", "-p", "tabula-service", "--test", "suite", "--", "--include-ignored"]
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
