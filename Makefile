# OpenBench-style build: `make EXE=path/to/castella-dev` builds the engine
# and puts the binary there; `make EXE=... EVALFILE=path/to/net.nnue`
# embeds that network instead of eval/nets/castella.nnue. Plain `make`
# builds ./castella.

EXE ?= castella
EVALFILE ?=
CARGO ?= cargo

.PHONY: all clean
all:
	EVALFILE='$(abspath $(EVALFILE))' $(CARGO) build --release -p castella
	cp target/release/castella $(EXE)

clean:
	$(CARGO) clean
