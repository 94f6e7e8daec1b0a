#!/usr/bin/env python3
"""Plays full games against wily through python-chess's XBoard or UCI engine class.

Usage: python_chess_games.py WILY_BINARY [GAMES] [xboard|uci] [LOG_DIR]

wily plays against a random mover, alternating colours, until each game is over by the
rules (or 300 plies, which fails): over xboard with a short time per move, over UCI with a
real clock (wtime/btime/winc/binc) that wily must not overstep. Prints one line per game
and exits non-zero on any protocol or rules problem. wily's xboard game files go to LOG_DIR
(default /tmp/wily-pychess-logs).
"""
import time
import random
import sys

import chess
import chess.engine


def play_game(engine, wily_white, rng, clock):
    board = chess.Board()
    # UCI: 10 s + 0.1 s a move for wily, tracked here; xboard: a fixed time per move.
    left = 10.0
    while not board.is_game_over(claim_draw=True):
        if board.ply() >= 300:
            raise SystemExit(f"game did not end in 300 plies: {board.fen()}")
        wily_to_move = board.turn == (chess.WHITE if wily_white else chess.BLACK)
        if wily_to_move:
            if clock:
                limit = chess.engine.Limit(white_clock=left, black_clock=left,
                                           white_inc=0.1, black_inc=0.1)
            else:
                limit = chess.engine.Limit(time=0.05)
            started = time.monotonic()
            result = engine.play(board, limit, game=id(board))
            if clock:
                left += 0.1 - (time.monotonic() - started)
                if left <= 0:
                    raise SystemExit(f"wily lost on time in {board.fen()}")
            if result.resigned:
                return board, "wily resigned"
            if result.move is None or result.move not in board.legal_moves:
                raise SystemExit(f"illegal or missing move {result.move} in {board.fen()}")
            board.push(result.move)
        else:
            board.push(rng.choice(list(board.legal_moves)))
    return board, board.result(claim_draw=True)


def main():
    binary = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    proto = sys.argv[3] if len(sys.argv) > 3 else "xboard"
    log_dir = sys.argv[4] if len(sys.argv) > 4 else "/tmp/wily-pychess-logs"
    rng = random.Random(7)
    if proto == "uci":
        engine = chess.engine.SimpleEngine.popen_uci([binary, "uci"])
        engine.configure({"Hash": 32})
    else:
        engine = chess.engine.SimpleEngine.popen_xboard(
            [binary, "xboard", "--log-dir", log_dir])
    try:
        wins = 0
        for g in range(games):
            wily_white = g % 2 == 0
            board, result = play_game(engine, wily_white, rng, proto == "uci")
            won = result == ("1-0" if wily_white else "0-1")
            wins += won
            print(f"game {g + 1}: wily {'White' if wily_white else 'Black'}, "
                  f"{board.ply()} plies, result {result}")
        # Analysis through the same engine.
        info = engine.analyse(chess.Board(), chess.engine.Limit(time=0.2))
        if "score" not in info:
            raise SystemExit(f"analysis gave no score: {info}")
        print(f"analysis: depth {info.get('depth')} score {info['score']}")
        print(f"wily won {wins}/{games} against a random mover")
    finally:
        engine.quit()


if __name__ == "__main__":
    main()
