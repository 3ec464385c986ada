"""Live loop benchmark: from the last quiet frame to the committed state, on one core.

    tablehub bench loop [--game neuesland|suedsee] [--turns N] [--size 1920x1080]

A recorded game plays on the simulated table (the renderer is not timed). For each
turn, the clock starts when the frame that completes the quiet spell reaches the
tracker and stops when NEXT's commit has validated, applied and written the turn to
SQLite (WAL, synchronous=FULL): motion gate, recognition of the changed cells, the
diff against the committed state, the rules, and the log. Target: median under 100 ms
at 1920x1080. Turns the camera was unsure about are entered as on the phone and not
timed (their count is printed). Figures are wall time with OpenCV on one thread, and
CPU time of this process (what one idle core gives on a busy machine).
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="tablehub bench loop", description=__doc__.splitlines()[0])
    p.add_argument("--game", default="neuesland", help="neuesland (default) or suedsee")
    p.add_argument("--turns", type=int, default=16, help="turns to play (default 16)")
    p.add_argument("--size", default="1920x1080", help="camera resolution (default 1920x1080)")
    p.add_argument("--seed", type=int, default=3, help="seed of the recorded game (default 3)")
    args = p.parse_args(argv)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")  # one core (effective when numpy is not imported yet)
    import cv2

    cv2.setNumThreads(1)
    from tablehub.games.base import TablehubError
    from tablehub.session import Session
    from tablehub.store import Store
    from tablehub.tracking.recognizer import RecognitionUnavailable
    from tablehub.tracking.script import equivalent
    from tablehub.tracking.simtable import SimTable, demo_record
    from tablehub.tracking.tracker import Tracker

    width, height = (int(v) for v in args.size.lower().split("x"))
    record = demo_record(args.game, 2, args.seed)
    # the printed tiles' scans when ../shared holds them (a benchmark may use them from there), else drawn art
    sim = SimTable(record, size=(width, height), art="auto").limit(args.turns)
    flat = [a for t in sim.turns for a in t.actions]
    try:
        recognize = sim.recognizer()
    except RecognitionUnavailable as exc:
        print(f"loop benchmark: cannot run: {exc}")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "games.sqlite")
        session = Session.create(store, record.setup)
        tracker = Tracker(lambda: session, recognize)
        camera = sim.camera()
        camera.open()
        totals: list[float] = []
        cpu: list[float] = []
        reads: list[float] = []
        untimed = 0
        turn_of_shot = None
        while True:
            try:
                frame = camera.read()
            except TablehubError:
                break
            shot = camera.current
            if shot.phase == "hands" and turn_of_shot != shot.turn:
                turn_of_shot = shot.turn
                turn = next(t for t in sim.turns if t.number == shot.turn)
                end_before = sum(len(t.actions) for t in sim.turns if t.number < turn.number) + len(turn.before)
                for a in flat[len(session.rows):end_before]:   # catch up what only the phone knows
                    session.submit(a, source="phone")
            t0, c0 = time.perf_counter(), time.process_time()
            reading = tracker.feed(frame)
            read_wall, read_cpu = time.perf_counter() - t0, time.process_time() - c0
            if reading is None:
                continue
            reads.append(tracker.last_read_ms)
            turn = next((t for t in sim.turns if t.number == shot.turn), None)
            if turn is None or not turn.table:
                continue
            end_table = sum(len(t.actions) for t in sim.turns if t.number < turn.number) + len(turn.before) + \
                len(turn.table)
            want = flat[len(session.rows):end_table]
            if not want:
                continue
            # (the check that the read is right is the benchmark's, not the hub's: not timed)
            if reading.state == "pending" and equivalent(session.game, reading.actions, want):
                t1, c1 = time.perf_counter(), time.process_time()
                outcome = tracker.commit()
                if outcome.ok:
                    totals.append((read_wall + time.perf_counter() - t1) * 1000)
                    cpu.append((read_cpu + time.process_time() - c1) * 1000)
                    continue
            untimed += 1
            for a in want:
                session.submit(a, source="phone")
            tracker.evaluate()
        store.close()
    print(f"loop benchmark: {record.setup.game} on {sim.art_name}, {len(sim.turns)} turns at {width}x{height}, Python "
          f"{platform.python_version()} on {platform.machine()}, OpenCV {cv2.__version__} on 1 thread")
    if not totals:
        print(f"no turn was read confidently enough to time ({untimed} entered as on the phone)")
        return 1
    print(f"last quiet frame -> committed state: median {statistics.median(totals):.1f} ms wall, "
          f"{statistics.median(cpu):.1f} ms CPU; max {max(totals):.1f} ms; over {len(totals)} turns "
          f"(target < 100 ms)")
    print(f"table reads (recognition + diff): median {statistics.median(reads):.1f} ms over {len(reads)} reads; "
          f"{untimed} turns entered as on the phone (camera unsure or wrong), not timed")
    return 0


if __name__ == "__main__":
    import sys

    # run as a script, this folder comes first on sys.path and its vision.py would hide the vision package
    here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
    raise SystemExit(main())
