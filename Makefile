# Builds the engine for distributed testing frameworks (OpenBench calls `make EXE=NAME`
# in the repository and then runs `NAME bench`): the lean engine binary `wily-lean`
# (crates/lean: the engine, UCI and bench, without the chess-server bot, tokio, axum or
# SQLite), copied to NAME. `make` alone leaves it at ./wily-lean; the full program is
# `cargo build --release` (target/release/wily). `EVALFILE=PATH` (a network file) reaches
# the engine's build as the environment variable WILY_EVALFILE (an absolute path).
EXE ?= wily-lean
CARGO ?= cargo
TARGET_DIR ?= target

ifeq ($(OS),Windows_NT)
	SUFFIX := .exe
else
	SUFFIX :=
endif

ifdef EVALFILE
export WILY_EVALFILE := $(abspath $(EVALFILE))
endif

.PHONY: all clean

all:
	$(CARGO) build --release -p wily-lean --target-dir $(TARGET_DIR)
	cp $(TARGET_DIR)/release/wily-lean$(SUFFIX) $(EXE)$(SUFFIX)

clean:
	$(CARGO) clean --target-dir $(TARGET_DIR)
