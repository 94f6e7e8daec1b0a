# Builds the engine for distributed testing frameworks (OpenBench calls `make EXE=NAME`
# in the repository and then runs `NAME bench`). `make` alone builds ./wily.
EXE ?= wily
CARGO ?= cargo
TARGET_DIR ?= target

ifeq ($(OS),Windows_NT)
	SUFFIX := .exe
else
	SUFFIX :=
endif

.PHONY: all clean

all:
	$(CARGO) build --release --bin wily --target-dir $(TARGET_DIR)
	cp $(TARGET_DIR)/release/wily$(SUFFIX) $(EXE)$(SUFFIX)

clean:
	$(CARGO) clean --target-dir $(TARGET_DIR)
