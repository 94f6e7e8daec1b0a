#!/usr/bin/env python3
"""Plays full games against wily through python-chess's XBoard engine class.

Usage: xboard_python_chess.py WILY_BINARY [GAMES]

wily (xboard protocol) plays against a random mover, alternating colours, with a short
time per move, until each game is over by the rules (or 300 plies, which fails). Prints
one line per game and exits non-zero on any protocol or rules problem.
"""
import random
import sys

import chess
import chess.engine


def play_game(engine, wily_white, rng):
    board = chess.Board()
    while not board.is_game_over(claim_draw=True):
        if board.ply() >= 300:
            raise SystemExit(f"game did not end in 300 plies: {board.fen()}")
        wily_to_move = board.turn == (chess.WHITE if wily_white else chess.BLACK)
        if wily_to_move:
            result = engine.play(board, chess.engine.Limit(time=0.05), game=id(board))
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
    rng = random.Random(7)
    engine = chess.engine.SimpleEngine.popen_xboard([binary, "xboard", "--log-dir", "/tmp/wily-pychess-logs"])
    try:
        wins = 0
        for g in range(games):
            wily_white = g % 2 == 0
            board, result = play_game(engine, wily_white, rng)
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
