# OpenBench-style build: `make EXE=path/to/castella-dev` builds the engine
# and puts the binary there. Plain `make` builds target/release/castella.

EXE ?= castella
CARGO ?= cargo

.PHONY: all clean
all:
	$(CARGO) build --release -p castella
	cp target/release/castella $(EXE)

clean:
	$(CARGO) clean
