#!/usr/bin/env python3
"""Self-play match between two wily builds over UCI (python-chess), for testing a change.

Usage: selfplay.py BINARY_A BINARY_B [PAIRS] [BASE_SECONDS] [INCREMENT] [WORKERS]

Each pair of games starts from one position of the shared balanced-openings file
(../shared/data/openings/8mvs_+90_+99.epd, or $WILY_SHARED/data/openings/...), once with
each build as White. Both engines get one thread and a 16 MB hash; the clock (base +
increment per move) is kept here from wall time, and a side whose clock runs out loses.
Games run WORKERS at a time, each pinned to its own processor (taskset), so keep WORKERS
at or below the processor count. Prints the running score of A every ten games and at the
end: wins, draws, losses, score and the Elo difference it implies.
"""
import concurrent.futures
import math
import os
import random
import sys
import time

import chess
import chess.engine


def openings():
    shared = os.environ.get("WILY_SHARED") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared")
    path = os.path.join(shared, "data", "openings", "8mvs_+90_+99.epd")
    with open(path) as f:
        lines = [l.split() for l in f if l.strip()]
    fens = [" ".join(fields[:4]) + " 0 1" for fields in lines if len(fields) >= 4]
    random.Random(7).shuffle(fens)
    return fens


def play(fen, white_bin, black_bin, cpu, base, inc):
    """Plays one game; returns 1, 0.5 or 0 for White."""
    board = chess.Board(fen)
    engines = {}
    try:
        for color, binary in ((chess.WHITE, white_bin), (chess.BLACK, black_bin)):
            e = chess.engine.SimpleEngine.popen_uci(["taskset", "-c", str(cpu), binary, "uci"])
            e.configure({"Hash": 16, "Threads": 1})
            engines[color] = e
        clock = {chess.WHITE: base, chess.BLACK: base}
        while not board.is_game_over(claim_draw=True) and board.ply() < 400:
            side = board.turn
            limit = chess.engine.Limit(white_clock=clock[chess.WHITE],
                                       black_clock=clock[chess.BLACK],
                                       white_inc=inc, black_inc=inc)
            start = time.monotonic()
            move = engines[side].play(board, limit).move
            clock[side] -= time.monotonic() - start
            if clock[side] < 0:
                return 0.0 if side == chess.WHITE else 1.0
            clock[side] += inc
            board.push(move)
        result = board.result(claim_draw=True)
        return {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
    finally:
        for e in engines.values():
            e.quit()


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    a, b = sys.argv[1], sys.argv[2]
    pairs = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    base = float(sys.argv[4]) if len(sys.argv) > 4 else 4.0
    inc = float(sys.argv[5]) if len(sys.argv) > 5 else 0.05
    workers = int(sys.argv[6]) if len(sys.argv) > 6 else 2
    fens = openings()
    wins = draws = losses = 0
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        jobs = []
        for i in range(pairs):
            fen = fens[i % len(fens)]
            for a_white in (True, False):
                cpu = len(jobs) % workers
                white, black = (a, b) if a_white else (b, a)
                jobs.append((a_white, pool.submit(play, fen, white, black, cpu, base, inc)))
        for n, (a_white, job) in enumerate(jobs, 1):
            white_score = job.result()
            score = white_score if a_white else 1.0 - white_score
            if score == 1.0:
                wins += 1
            elif score == 0.0:
                losses += 1
            else:
                draws += 1
            if n % 10 == 0 or n == len(jobs):
                p = (wins + draws / 2) / n
                elo = -400 * math.log10(1 / p - 1) if 0 < p < 1 else float("nan")
                print(f"{n} games: A +{wins} ={draws} -{losses} score {p:.3f} elo {elo:+.0f}",
                      flush=True)


if __name__ == "__main__":
    main()
